package plots

// The TCP figures of document 001 (Zhang et al., Internet over GEO
// satellites, results table: NS simulations over 128 kbit/s to
// 6.176 Mbit/s, 10 to 400 ms, 1 KB to 100 MB, windows 2 KB to 512 KB).
// They are drawn generically from their spec's plots entry, the
// simulated metric beside the model's closed-form bound where that bound
// is close to what a transfer reaches (not for 10 KB at 1.544 Mbit/s,
// which ends in slow start far below min(R, W/RTT)).

func zhTCP(id, caption string) Figure {
	return Figure{ID: id, Caption: "Document 001, results table: " + caption}
}

func zhThr6176() Figure {
	return zhTCP("zh-fig-thr-6176", "throughput vs latency at 6.176 Mbit/s, 100 MB transfer, by window size (simulated points, window-limited bound min(R, W/RTT) dashed)")
}

func zhThr1544() Figure {
	return zhTCP("zh-fig-thr-1544", "throughput vs latency at 1.544 Mbit/s, 10 KB transfer, by window size (no window-limited bound: a 10 KB transfer ends in slow start, far below it)")
}

func zhRT384M() Figure {
	return zhTCP("zh-fig-rt-384-1m", "response time vs latency at 0.384 Mbit/s, 1 MB transfer, by window size, with the lossless bound (handshake + slow-start rounds + serialisation)")
}

func zhRT384K() Figure {
	return zhTCP("zh-fig-rt-384-10k", "response time vs latency at 0.384 Mbit/s, 10 KB transfer, by window size, with the lossless bound (handshake + slow-start rounds + serialisation)")
}

func zhVariants6176() Figure {
	return zhTCP("zh-fig-thr-6176-variants", "throughput vs latency at 6.176 Mbit/s, 100 MB, 512 KB window: Reno with and without large windows (RFC 7323), SACK, Vegas, RED gateway")
}

func zhVariants384() Figure {
	return zhTCP("zh-fig-rt-384-10k-variants", "response time vs latency at 0.384 Mbit/s, 10 KB: Reno, SACK, Vegas, RED gateway, transaction TCP as RFC 1644 specifies it (accelerated open on a TAO cache hit: no handshake round trip, slow start unchanged) and, as the document describes T/TCP, with slow start skipped too (initial window 20 segments, the whole transfer; not RFC 1644)")
}
