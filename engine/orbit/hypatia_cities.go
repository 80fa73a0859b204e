package orbit

// hypatiaTop100 is Hypatia's ground station list, the 100 most populous
// cities by their estimated 2025 population, in its order (the index is
// the station's gid), with its names and coordinates in degrees exactly as
// github.com/snkas/hypatia writes them in
// paper/satellite_networks_state/input_data/ground_stations_cities_sorted_by_estimated_2025_pop_top_100.basic.txt
// (commit 0ac531c313eba2335f6344b46347140c3a0d4230; heights all 0).
// Hypatia's README says only "the top 1000 cities by the largest
// population estimated for 2025"; the names ("Kinki M.M.A. (Osaka)",
// "New York-Newark", "Los Angeles-Long Beach-Santa Ana") are the urban
// agglomerations of the UN's World Urbanization Prospects 2018, whose
// coordinates mark an agglomeration rather than a city centre: that is why
// some differ from GeoNames' city points (New York by 0.36 km, Karachi by
// 8.8 km).
var hypatiaTop100 = []struct {
	name     string
	lat, lon float64
}{
	{"Tokyo", 35.6895, 139.69171},
	{"Delhi", 28.66667, 77.21667},
	{"Shanghai", 31.22222, 121.45806},
	{"São-Paulo", -23.5475, -46.63611},
	{"Mumbai-(Bombay)", 19.073975, 72.880838},
	{"Ciudad-de-México-(Mexico-City)", 19.427318, -99.141869},
	{"Beijing", 39.9075, 116.39723},
	{"Kinki-M.M.A.-(Osaka)", 34.675834, 135.553823},
	{"Al-Qahirah-(Cairo)", 30.039173, 31.239411},
	{"New-York-Newark", 40.717042, -74.003663},
	{"Dhaka", 23.7104, 90.40744},
	{"Karachi", 24.9056, 67.0822},
	{"Buenos-Aires", -34.605083, -58.400368},
	{"Kolkata-(Calcutta)", 22.533455, 88.356045},
	{"Istanbul", 41.0138, 28.9497},
	{"Chongqing", 29.56278, 106.55278},
	{"Lagos", 6.45306, 3.39583},
	{"Manila", 14.6042, 120.9822},
	{"Rio-de-Janeiro", -22.90278, -43.2075},
	{"Guangzhou--Guangdong", 23.125457, 113.257374},
	{"Los-Angeles-Long-Beach-Santa-Ana", 34.031656, -118.241716},
	{"Moskva-(Moscow)", 55.754996, 37.621849},
	{"Kinshasa", -4.32758, 15.31357},
	{"Tianjin", 39.108842, 117.18862},
	{"Paris", 48.85341, 2.3488},
	{"Shenzhen", 22.541487, 114.063427},
	{"Jakarta", -6.211831, 106.841646},
	{"London", 51.50853, -0.12574},
	{"Bangalore", 12.97194, 77.59369},
	{"Lima", -12.04318, -77.02824},
	{"Chennai-(Madras)", 13.053091, 80.24875},
	{"Seoul", 37.56826, 126.97783},
	{"Bogotá", 4.60971, -74.08175},
	{"Chukyo-M.M.A.-(Nagoya)", 35.18147, 136.90641},
	{"Johannesburg", -26.20227, 28.04363},
	{"Krung-Thep-(Bangkok)", 13.721964, 100.525248},
	{"Hyderabad", 17.37528, 78.47444},
	{"Chicago", 41.85003, -87.65005},
	{"Lahore", 31.5497222, 74.3436111},
	{"Tehran", 35.69439, 51.42151},
	{"Wuhan", 30.58333, 114.26667},
	{"Chengdu", 30.66667, 104.06667},
	{"Dongguan", 23.02116, 113.741411},
	{"Nanjing--Jiangsu", 32.048183, 118.789812},
	{"Ahmadabad", 23.03333, 72.61667},
	{"Hong-Kong", 22.279588, 114.188697},
	{"Thành-Pho-Ho-Chí-Minh-(Ho-Chi-Minh-City)", 10.75, 106.66667},
	{"Foshan", 23.022778, 113.119953},
	{"Kuala-Lumpur", 3.1412, 101.68653},
	{"Baghdad", 33.34058, 44.40088},
	{"Santiago", -33.45694, -70.64827},
	{"Hangzhou", 30.29365, 120.16142},
	{"Ar-Riyadh-(Riyadh)", 24.690466, 46.709566},
	{"Shenyang", 41.79222, 123.43278},
	{"Madrid", 40.4165, -3.70256},
	{"Xi'an--Shaanxi", 34.289413, 108.940242},
	{"Toronto", 43.70011, -79.4163},
	{"Miami", 25.789097, -80.204044},
	{"Pune-(Poona)", 18.516057, 73.861578},
	{"Belo-Horizonte", -19.92083, -43.93778},
	{"Dallas-Fort-Worth", 32.72541, -97.32085},
	{"Surat", 21.16667, 72.83333},
	{"Houston", 29.7601927, -95.3693896},
	{"Singapore", 1.28967, 103.85007},
	{"Philadelphia", 39.95234, -75.16379},
	{"Kitakyushu-Fukuoka-M.M.A.", 33.6064, 130.4181},
	{"Luanda", -8.83682, 13.23432},
	{"Suzhou--Jiangsu", 31.302068, 120.585259},
	{"Haerbin", 45.756325, 126.646688},
	{"Barcelona", 41.38879, 2.15899},
	{"Atlanta", 33.76, -84.4},
	{"Al-Khartum-(Khartoum)", 15.55177, 32.53241},
	{"Dar-es-Salaam", -6.82349, 39.26951},
	{"Sankt-Peterburg-(Saint-Petersburg)", 59.929858, 30.326228},
	{"Washington--D.C.", 38.89511, -77.03637},
	{"Abidjan", 5.345339, -4.026789},
	{"Guadalajara", 20.66667, -103.33333},
	{"Yangon", 16.80528, 96.15611},
	{"Al-Iskandariyah-(Alexandria)", 31.192471, 29.904596},
	{"Ankara", 39.91987, 32.85427},
	{"Kabul", 34.528887, 69.17246},
	{"Qingdao", 36.09861, 120.37194},
	{"Chittagong", 22.33306, 91.83639},
	{"Monterrey", 25.66667, -100.31667},
	{"Sydney", -33.86785, 151.20732},
	{"Dalian", 38.913811, 121.602322},
	{"Xiamen", 24.47979, 118.08187},
	{"Zhengzhou", 34.75778, 113.64861},
	{"Boston", 42.347919, -71.06453},
	{"Melbourne", -37.814, 144.96332},
	{"Brasília", -15.77972, -47.92972},
	{"Jiddah", 21.51694, 39.21917},
	{"Phoenix-Mesa", 33.449454, -112.074743},
	{"Ji'nan--Shandong", 36.676721, 116.997142},
	{"Montréal", 45.50884, -73.58781},
	{"Shantou", 23.36814, 116.71479},
	{"Nairobi", -1.28333, 36.81667},
	{"Medellín", 6.25184, -75.56359},
	{"Fortaleza", -3.74117, -38.543575},
	{"Kunming", 25.03889, 102.71833},
}

// HypatiaCities returns Hypatia's 100 ground stations (the cities with the
// largest estimated 2025 population), in Hypatia's order and with its
// names, at height 0: station i is Hypatia's gid i.
func HypatiaCities() []Station {
	out := make([]Station, len(hypatiaTop100))
	for i, c := range hypatiaTop100 {
		out[i] = Station{Name: c.name, Lat: Radians(c.lat), Lon: Radians(c.lon)}
	}
	return out
}
