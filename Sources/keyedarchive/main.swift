print("keyedarchive")
