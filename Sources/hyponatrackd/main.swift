print("hyponatrackd")
