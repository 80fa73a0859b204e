package orbit

// hypatiaTop100 is Hypatia's ground station list, the 100 most populous
// cities, in its order (the index is the station's gid), with its names and
// coordinates in degrees exactly as github.com/snkas/hypatia writes them in
// paper/satellite_networks_state/input_data/ground_stations_cities_sorted_by_estimated_2025_pop_top_100.basic.txt
// (commit 0ac531c313eba2335f6344b46347140c3a0d4230; heights all 0).
//
// Hypatia's README says only "the top 1000 cities by the largest
// population estimated for 2025"; the names and coordinates are those of
// the urban agglomerations of the UN's World Urbanization Prospects: The
// 2014 Revision, File 12 (POP/DB/WUP/Rev.2014/1/F12, "Population of Urban
// Agglomerations with 300,000 Inhabitants or More in 2014, by Country,
// 1950-2030 (thousands)"): every one of the 100 coordinates is that file's
// to the last printed digit, which marks an agglomeration rather than a
// city centre (that is why some differ from GeoNames' city points, New York
// by 0.36 km, Karachi by 8.8 km). pop2015 and pop2025 are that file's
// columns 2015 and 2025, thousands of inhabitants. Sorted by pop2015 the
// file's 1,692 agglomerations give Hypatia's 100 in Hypatia's order, all
// 100 positions; sorted by pop2025 only 13 positions agree (Beijing is
// fourth in 2025, Hypatia's seventh): the list is ordered by the 2015
// estimate, whatever its file name says (TestHypatiaOrderIsPop2015).
var hypatiaTop100 = []struct {
	name             string
	lat, lon         float64
	pop2015, pop2025 float64 // thousands, WUP 2014 File 12
}{
	{"Tokyo", 35.6895, 139.69171, 38001.018, 37875.951},
	{"Delhi", 28.66667, 77.21667, 25703.168, 32726.564},
	{"Shanghai", 31.22222, 121.45806, 23740.778, 29441.569},
	{"São-Paulo", -23.5475, -46.63611, 21066.245, 22899.066},
	{"Mumbai-(Bombay)", 19.073975, 72.880838, 21042.538, 25207.329},
	{"Ciudad-de-México-(Mexico-City)", 19.427318, -99.141869, 20998.543, 22916.166},
	{"Beijing", 39.9075, 116.39723, 20383.994, 26493.899},
	{"Kinki-M.M.A.-(Osaka)", 34.675834, 135.553823, 20237.645, 20348.077},
	{"Al-Qahirah-(Cairo)", 30.039173, 31.239411, 18771.769, 22431.541},
	{"New-York-Newark", 40.717042, -74.003663, 18593.22, 19313.741},
	{"Dhaka", 23.7104, 90.40744, 17598.228, 24330.957},
	{"Karachi", 24.9056, 67.0822, 16617.644, 22008.891},
	{"Buenos-Aires", -34.605083, -58.400368, 15180.176, 16479.488},
	{"Kolkata-(Calcutta)", 22.533455, 88.356045, 14864.919, 17284.538},
	{"Istanbul", 41.0138, 28.9497, 14163.989, 15958.951},
	{"Chongqing", 29.56278, 106.55278, 13331.579, 16570.875},
	{"Lagos", 6.45306, 3.39583, 13122.829, 20029.595},
	{"Manila", 14.6042, 120.9822, 12946.263, 15199.527},
	{"Rio-de-Janeiro", -22.90278, -43.2075, 12902.306, 13789.134},
	{"Guangzhou--Guangdong", 23.125457, 113.257374, 12458.13, 16744.121},
	{"Los-Angeles-Long-Beach-Santa-Ana", 34.031656, -118.241716, 12309.53, 12834.571},
	{"Moskva-(Moscow)", 55.754996, 37.621849, 12165.704, 12381.913},
	{"Kinshasa", -4.32758, 15.31357, 11586.914, 16916.014},
	{"Tianjin", 39.108842, 117.18862, 11210.329, 13955.233},
	{"Paris", 48.85341, 2.3488, 10843.285, 11565.008},
	{"Shenzhen", 22.541487, 114.063427, 10749.473, 12067.045},
	{"Jakarta", -6.211831, 106.841646, 10323.142, 12589.455},
	{"London", 51.50853, -0.12574, 10313.307, 11206.553},
	{"Bangalore", 12.97194, 77.59369, 10087.132, 13328.87},
	{"Lima", -12.04318, -77.02824, 9897.033, 11534.306},
	{"Chennai-(Madras)", 13.053091, 80.24875, 9890.427, 12570.348},
	{"Seoul", 37.56826, 126.97783, 9773.746, 9899.863},
	{"Bogotá", 4.60971, -74.08175, 9764.769, 11398.247},
	{"Chukyo-M.M.A.-(Nagoya)", 35.18147, 136.90641, 9406.264, 9456.076},
	{"Johannesburg", -26.20227, 28.04363, 9398.698, 11031.751},
	{"Krung-Thep-(Bangkok)", 13.721964, 100.525248, 9269.823, 10953.185},
	{"Hyderabad", 17.37528, 78.47444, 8943.523, 11527.37},
	{"Chicago", 41.85003, -87.65005, 8744.835, 9166.191},
	{"Lahore", 31.5497222, 74.3436111, 8741.365, 11515.066},
	{"Tehran", 35.69439, 51.42151, 8432.196, 9481.381},
	{"Wuhan", 30.58333, 114.26667, 7905.572, 8969.989},
	{"Chengdu", 30.66667, 104.06667, 7555.705, 9593.663},
	{"Dongguan", 23.02116, 113.741411, 7434.935, 8262.828},
	{"Nanjing--Jiangsu", 32.048183, 118.789812, 7369.157, 9259.815},
	{"Ahmadabad", 23.03333, 72.61667, 7342.85, 9489.59},
	{"Hong-Kong", 22.279588, 114.188697, 7313.557, 7743.047},
	{"Thành-Pho-Ho-Chí-Minh-(Ho-Chi-Minh-City)", 10.75, 106.66667, 7297.78, 9295.8},
	{"Foshan", 23.022778, 113.119953, 7035.945, 7929.527},
	{"Kuala-Lumpur", 3.1412, 101.68653, 6836.911, 8702.669},
	{"Baghdad", 33.34058, 44.40088, 6642.848, 8602.352},
	{"Santiago", -33.45694, -70.64827, 6507.4, 6932.504},
	{"Hangzhou", 30.29365, 120.16142, 6390.637, 8365.0},
	{"Ar-Riyadh-(Riyadh)", 24.690466, 46.709566, 6369.71, 7617.317},
	{"Shenyang", 41.79222, 123.43278, 6315.47, 7502.62},
	{"Madrid", 40.4165, -3.70256, 6199.254, 6621.163},
	{"Xi'an--Shaanxi", 34.289413, 108.940242, 6043.7, 7492.661},
	{"Toronto", 43.70011, -79.4163, 5992.739, 6708.477},
	{"Miami", 25.789097, -80.204044, 5817.221, 6307.538},
	{"Pune-(Poona)", 18.516057, 73.861578, 5727.53, 7285.216},
	{"Belo-Horizonte", -19.92083, -43.93778, 5716.422, 6222.369},
	{"Dallas-Fort-Worth", 32.72541, -97.32085, 5702.641, 6430.419},
	{"Surat", 21.16667, 72.83333, 5650.011, 7754.631},
	{"Houston", 29.7601927, -95.3693896, 5638.045, 6473.74},
	{"Singapore", 1.28967, 103.85007, 5618.866, 6333.513},
	{"Philadelphia", 39.95234, -75.16379, 5585.211, 5924.714},
	{"Kitakyushu-Fukuoka-M.M.A.", 33.6064, 130.4181, 5510.478, 5425.515},
	{"Luanda", -8.83682, 13.23432, 5506.0, 8566.565},
	{"Suzhou--Jiangsu", 31.302068, 120.585259, 5472.033, 7669.099},
	{"Haerbin", 45.756325, 126.646688, 5457.414, 6499.061},
	{"Barcelona", 41.38879, 2.15899, 5258.319, 5603.818},
	{"Atlanta", 33.76, -84.4, 5142.14, 5903.515},
	{"Al-Khartum-(Khartoum)", 15.55177, 32.53241, 5129.358, 6929.057},
	{"Dar-es-Salaam", -6.82349, 39.26951, 5115.67, 8592.861},
	{"Sankt-Peterburg-(Saint-Petersburg)", 59.929858, 30.326228, 4992.991, 4996.986},
	{"Washington--D.C.", 38.89511, -77.03637, 4955.139, 5469.161},
	{"Abidjan", 5.345339, -4.026789, 4859.798, 6729.437},
	{"Guadalajara", 20.66667, -103.33333, 4843.241, 5543.714},
	{"Yangon", 16.80528, 96.15611, 4801.93, 5971.062},
	{"Al-Iskandariyah-(Alexandria)", 31.192471, 29.904596, 4777.677, 5733.323},
	{"Ankara", 39.91987, 32.85427, 4749.968, 5571.295},
	{"Kabul", 34.528887, 69.17246, 4634.875, 6932.274},
	{"Qingdao", 36.09861, 120.37194, 4565.549, 5600.93},
	{"Chittagong", 22.33306, 91.83639, 4539.393, 5935.859},
	{"Monterrey", 25.66667, -100.31667, 4512.572, 5193.845},
	{"Sydney", -33.86785, 151.20732, 4505.341, 5012.288},
	{"Dalian", 38.913811, 121.602322, 4489.38, 5534.386},
	{"Xiamen", 24.47979, 118.08187, 4430.081, 6533.718},
	{"Zhengzhou", 34.75778, 113.64861, 4387.118, 5579.498},
	{"Boston", 42.347919, -71.06453, 4249.036, 4485.195},
	{"Melbourne", -37.814, 144.96332, 4203.416, 4792.037},
	{"Brasília", -15.77972, -47.92972, 4155.476, 4750.526},
	{"Jiddah", 21.51694, 39.21917, 4075.803, 4769.746},
	{"Phoenix-Mesa", 33.449454, -112.074743, 4062.605, 4614.444},
	{"Ji'nan--Shandong", 36.676721, 116.997142, 4032.15, 4947.363},
	{"Montréal", 45.50884, -73.58781, 3980.708, 4342.958},
	{"Shantou", 23.36814, 116.71479, 3948.813, 4630.862},
	{"Nairobi", -1.28333, 36.81667, 3914.791, 5870.208},
	{"Medellín", 6.25184, -75.56359, 3910.989, 4492.308},
	{"Fortaleza", -3.74117, -38.543575, 3880.202, 4383.749},
	{"Kunming", 25.03889, 102.71833, 3779.558, 4539.523},
}

// HypatiaCities returns Hypatia's 100 ground stations (the cities with the
// largest population), in Hypatia's order and with its names, at height 0,
// each with its population (Station.Population, Population2025; the UN's
// World Urbanization Prospects 2014, see hypatiaTop100): station i is
// Hypatia's gid i.
func HypatiaCities() []Station {
	out := make([]Station, len(hypatiaTop100))
	for i, c := range hypatiaTop100 {
		out[i] = Station{Name: c.name, Lat: Radians(c.lat), Lon: Radians(c.lon),
			Population: c.pop2015 * 1e3, Population2025: c.pop2025 * 1e3}
	}
	return out
}
