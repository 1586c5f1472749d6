print("hyponatrack")
