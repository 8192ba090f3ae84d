# The submissions in attacks/ are pasted into notebooks by test_attacks.py: not modules to import.
collect_ignore_glob = ["attacks/*"]
