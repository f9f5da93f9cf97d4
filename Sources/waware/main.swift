print("waware")
