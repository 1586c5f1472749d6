print("bench-import: placeholder")
