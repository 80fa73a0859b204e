package report

import "fmt"

// Document is one source document crosslink reproduces.
type Document struct {
	Number string // "000": the file name prefix in the seeds directory
	Title  string
}

// Entry is one figure or table of a source document: the list crosslink
// regenerates. A spec declares a figure by naming its ID in a plots entry.
type Entry struct {
	ID       string
	Document string // Document.Number
	Figure   string // as the document numbers it: "Fig. 6", "Table 2", "text"
	Content  string // what the figure shows
	// Printed says the document prints numbers for this figure (a table, or
	// values quoted in the text), so the report expects a document / ours
	// / difference table from it.
	Printed bool
	// Deviation explains, for every reader, where and why crosslink's
	// figure departs from the document's; empty when it does not.
	Deviation string
}

// Documents returns the source documents in number order.
func Documents() []Document {
	return []Document{
		{"000", `Rodriguez-Colina, Gil-Leyva, Marzo, Ramos: "A bit error rate analysis for TCP traffic over parallel free space photonics", Telecommunication Systems, 2013`},
		{"001", "Zhang, De Lucia, Ryu, Dao (Hughes Research Laboratories): Internet over GEO satellites"},
		{"002", `"On the Interplay of Congestion and OSNR Degradation for TCP over Optical Networks"`},
		{"004", "Speidel (University of Auckland), APNIC blog: GEO vs MEO satellite links for island ISPs"},
	}
}

// Catalog returns every figure and table of the source documents that
// crosslink regenerates, in document order. It is the list of the
// project's figure index (shared/seeds/README.md), copied here so the
// report needs nothing outside the repository; the ranges written there
// as zh-fig-mbone-{loss,jitter,bw,fps} and os-fig2..fig9 are spelt out.
func Catalog() []Entry {
	// spLoss is what the ablations of sp-fig1's set-up (one factor at a
	// time, 60 s runs of 3 replicates unless a 300 s run is named) found
	// behind the loss figures; the numbers are GEO / MEO payload loss.
	const spLoss = "The document's buffers are set as it states them (GEO 250 kB, MEO 200 kB); its flow-size distribution (measured in Rarotonga), its hosts' TCP and whether its loss counts the probe's bytes are not published, and sp-fig1 uses stand-ins for them: a bounded Pareto of shape 1.1 (90 % of flows at most 10 segments, the document's \"vast majority\"), the host these figures were first made with (pinned in the spec: no timestamps, PRR, delayed ACKs or Linux's recovery mechanisms) and the probe counted. " +
		"Mechanism: GEO is not saturated at 200 channels (utilisation 0.60 to 0.66, mean queue 33 to 35 kB of 250 kB, as the document's \"both links have in principle spare capacity\"); its loss is the overshoot at the end of slow start of the probe and of the few large flows into a queue of a ninth of GEO's bandwidth-delay product (32 Mbit/s x 0.58 s), so it is nearly flat in load: 1.1, 1.0, 1.4 and 2.0 % at 20, 80, 110 and 200 channels over 300 s; without the probe (probe_size 0) GEO loses nothing at 20 channels in 60 s and 1.4 % at 200. " +
		"Alone (1 channel, 60 s), the probe's slow start loses 0.87 % of its bytes on GEO and 0.33 % on MEO (HyStart on or off alike), but at one load MEO completes about 2.7 times GEO's flows per second and carries 3 to 4 times its channel bytes (300 s, 20 to 110 channels), so the overshoot of its large flows catches up with GEO's by 20 channels. " +
		"MEO's queue saturates from about 110 channels (utilisation 0.83 at 110, 0.99 at 200) and its loss grows with the overload (1.2, 2.0, 2.6, 6.0 % at 20, 80, 110, 200 channels over 300 s). " +
		"At 200 channels GEO's loss varies from run to run with the few large flows a run draws (1.3 to 2.7 % over 8 runs of 60 s, mean 1.8 %; 1.4 to 2.5 % over 6 runs of 300 s, mean 1.96 %), so the 25 % band around 2.5 % (1.875 to 3.125 %) holds or fails with the draw; MEO's varies less (5.1 to 7.0 %, mean 6.1 % in 60 s runs and 6.15 % in 300 s runs), 27 % above 4.8 %, and the ratio is 3.1 to 3.4 against 1.9. Run length is not the cause: the quick profile's 60 s runs and the full profile's 300 s agree within their spread. Nor does the document say over which time it counts the loss: counted from the start (warmup 0, so the burst of all channels opening within 1 s is in), GEO loses 2.25 % at 200 channels (8 runs of 60 s) against 1.8 % after a 5 s warm-up, MEO 6.3 against 6.1 %, and at 50 channels GEO 1.3 against MEO 1.55 %: it lifts GEO into the band in short runs but leaves the ratio (2.8) and the crossover. " +
		"The crossover: with these stand-ins both orbits lose about 1.1 % at 20 channels and MEO more from 50 channels on (300 s: 1.7 against 1.1 % at 50), so MEO's loss passes GEO's near 20 to 50 channels, not 110; the document's crossover needs GEO to lose more than MEO at light load, as the probe alone does, which none of the factors it leaves open does alone up to 110 channels. Capping the channels' flows at 2 MB (flow_max; no channel flow then fills either orbit's bandwidth-delay product plus buffer in slow start) puts GEO above MEO at 20 channels (0.68 against 0.58 %) and MEO at 4.7 % at 200 (GEO 1.1 %), yet MEO still loses more from 50 channels (1.2 against 0.8 %): MEO's light-load loss comes from the bursts of its short flows, which it completes 2.7 times as often as GEO at its smaller queue. " +
		"Ablations at 200 channels (60 s): the Linux host of the models' defaults instead of the pinned one, 2.3 / 5.6 %; HyStart off, 2.2 / 7.2 %; MEO's buffer at 250 kB, 5.3 % (GEO at 200 kB, 2.6 %), and at 50 channels MEO still loses more than GEO with either; flow sizes, the largest lever: Pareto shape 1.0, 3.5 / 9.4 % (GEO above MEO up to about 55 channels: 2.1 / 2.0 % at 50, 1.6 / 2.3 % at 80), shape 1.3, 1.0 / 2.0 %, SURGE's mix, 6.1 / 18.9 % (sp-flowsize-loss and sp-flowsize-surge draw these). " +
		"No parameter is fitted to the document's numbers."
	const tab3 = "Table 3's aggregated-goodput column is internally inconsistent in the document; crosslink reproduces the goodput column and the comparison notes each row it cannot match."
	const lit = "Document 000's Table 1 misprints Planck's constant, Boltzmann's constant and the efficiencies (0.75 %, not 0.75); crosslink draws the curves with the corrected (CODATA) constants; the fso-ber model's constants parameter (paper) reproduces the literal values."
	const zhTCP = "The extracted document shows these results only as figures (its results table links to them) and prints no numbers, so there is nothing to tabulate; each figure draws the closed-form window-limited bound beside the simulated points instead. " +
		"The document does not give its gateway queue; every figure of the results table uses one DropTail queue of 2000 packets (1.1 MB on the wire), which holds the largest window's slow-start burst, so the window and not loss limits a transfer, the regime the document reasons in (throughput = window / round trip)."
	const zhSmall = zhTCP + " A 10 KB transfer is 20 segments and never fills even NS's 50-packet default: the claim's ratio is the same at both queue sizes (quick profile: %s)."
	const mbone = "The document's MBone table prints what the four charts show (terrestrial loss well above 70 %, jitter occasionally 200 ms or more, a quarter of the bandwidth and a sixth of the frame rate of the satellite path, no loss over ACTS); those numbers sit beside ours in the zh-tab-mbone table of this report, computed from the same timeseries column as each chart's claims. The terrestrial path is modelled with 30 congested hops, the document's \"tens of hops\" (zh-mbone-hops shows what fewer hops give). " +
		"The frame structure is the document's video tool's: vic (its reference [9]) codes intra-H.261, every frame intra-coded (no frame depends on another; RFC 2032's I flag), 2000 bytes a frame at 128 kbit/s and 8 frames/s, in two packets. " +
		"The frame rate claim reads vic's own count, since the chart is vic's statistic: vic counts a frame for every packet that arrives with the RTP marker bit, which marks a frame's last packet; the chart also draws the frames a decoder can show (every packet arrived; with a group of pictures, the gop parameter, also the frame each predicted frame depends on). " +
		"Neither reaches the document's one-sixth: behind DropTail queues kept full by TCP, the second of a frame's back-to-back packets is dropped far more often than the first, so vic's count is 0.085 of the satellite's and whole frames 0.035 while 0.23 of the bandwidth arrives (quick profile). A group of pictures longer than one frame would only lower the frames shown."
	const osBackbone = "The testbed is emulated as the document's Mininet set-up, mechanism by mechanism (docs/os-testbed.md; the os-testbed-ablation table gives what each mechanism does): netem's queue limit counts every skb it holds, the 10 ms delay line included, and TCP hands it GSO aggregates of two or more segments (one while cwnd is under four segments), so the total stays near the link rate while the limit still covers the delay line in aggregates and falls with q below that (os-backbone draws a plain TCLink and a router's queue beside it). The hosts run Linux's TCP with its defaults (engine/models/tcp_host.go) and, below TCP, TSO with deferral, TCP Small Queues, cwnd grown only while it limits the sender, the 16 MiB socket buffers Mininet's fixLimits allows iperf3 -w 16m, and each TCLink's rate as HTB's token bucket (an skb leaves whole when the bucket is in credit, cburst 1600 bytes) with its count of each frame's 14-byte Ethernet header (qdisc_pkt_len); left out, each with no effect here by construction (docs/os-testbed.md): the destination metrics cache (only the first BBR flow finds an entry, which sets nothing but its first RTO), autocorking and Nagle (they hold back only a partly filled last skb, and iperf3 keeps the write queue full)."
	// osLossless and osWithLoss name what the full profile (tcp-compete
	// version 36, 5 replicates of 200 s) does not reach, with the numbers
	// of the runs that looked for the cause.
	const osLossless = osBackbone + " Not reached: the lossless total is 95.6 Mbit/s at every q >= 50 % against the images' 91.3-93.9; HTB's count of the Ethernet header took 0.9 Mbit/s of that gap, the rest is not traced. " +
		"At q >= 50 % BBR and BBRv2 get 8.5-9.5 Mbit/s each, inside the images' 8-12, and BIC and Reno together 56.3-68.1, inside the images' 60-70 at every q but 50 and 65 % (56.3 and 56.6); CUBIC gets 9.9-20.4 (above 12 at seven of the eleven q; 20.4 at q = 65 %, 10.9 at q = 100 %) where the images show 7.9-12.0 (9.1 at q = 100 %). " +
		"Jain's index there is 0.38-0.52 against the images' 0.51-0.74: the two flows of BIC and the two of Reno split the loss-based share further apart than the images' index allows. " +
		"On a real Linux 6.1 kernel running the same testbed (make linux-peer, BBR v1 in BBRv2's places, docs/linux-peer.md) the two CUBIC flows get the same as the emulation's at q = 100 % (10.8 against 10.9 Mbit/s together), and with the senders started in the scripts' order 5 and 20 ms apart (one 30 s run each) the kernel's CUBIC pair gets 13.1 and 18.1 Mbit/s, so the images' lower CUBIC is not the Linux host on this testbed as the peer builds it; the emulation's BBR floor flows are a tenth faster than the kernel's (16.8 against 15.2 Mbit/s for the four), and BIC and Reno split 48 and 20 Mbit/s against the kernel's 40 and 29: the loss-based flows' windows, set in the first second, decide the split, and TCP Small Queues lets the larger ones hold more of the shared s3-s1 queue, which is the floor flows' trip. The kernel's windows were larger because tcp_slow_start adds every segment a GRO-stretched ACK covers; the emulation counts so since tcp-compete 34 (it had RFC 3465's limit of two segments per ACK), which brought the four BBR flows from 18.7 to 16.8 Mbit/s and BIC from 34 to 48, Reno from 32 to 20 (three seeds of 60 s; which of BIC and Reno leads is decided by the first second, and the images change leader from one q to the next). " +
		"The lossless retransmission peak lies at q = 30 % (513 a second; 406 at q = 35 %, 113 at 40 %) where the images' lies at q = 35 % (504 a second). " +
		"Our totals fall with q from q = 45 % (94.1, 91.9, 78.9, 65.2, 55.4, 37.9 and 25.6 Mbit/s at q = 45, 40, 35, 30, 25, 20 and 15 %) where the images' fall from q = 45 % (79.0 there; 79.5, 68.2, 48.8 and 38.2 at q = 40, 35, 30 and 25 %): below q = 50 % the total is what netem's limit in skbs carries through the 10 ms delay line. The take-over begins at q = 35 % (BBR 62.1 Mbit/s there) where the images' begins at 40 % (56.0 there); at q = 40 % two of our five runs take over (BBR 57.5 and 57.8, totals 85.9 and 86.5) and three stay in the large-buffer regime (BBR 8.2-8.6, total 95.6), 28.1 and 91.9 on average: with Linux's slow-start count (tcp-compete 34) the loss-based flows start with larger windows and often hold the large-buffer regime there (under tcp-compete 33, BBR had 47.5 there). " +
		"Each TCLink as HTB's token bucket, which releases an skb whole where the model's TCLinks had serialised it and delivered it after its last bit (tcp-compete 33), brought the totals at q = 25-40 % down from 90.0-93.7 Mbit/s (tcp-compete 31, full profile): before, one BBR flow grew its estimate into aggregates of eight segments and took the backbone. " +
		"On the real kernel with four BBR v1 flows the emulation's totals at q = 20-40 % are within 2.3 Mbit/s of the kernel's at every loss level (34.3 against 33.3 at q = 20 % lossless, 52.0 against 50.3 at 30 %, 71.1 against 69.4 at 40 %; tcp-compete 36), and the kernel's are near the images' (48.8 at q = 30 %); with the document's mix, two BBRv2 flows among them, ours are higher, and BBR v1 carries more: BBRv2 is the alpha kernel's, which mainline Linux has not, so the peer cannot check it. " +
		"With the images' two BBR v1 flows and CUBIC in BBRv2's places (docs/linux-peer.md, last table), the kernel's totals at q = 20, 30 and 40 % are 36.6, 61.0 and 82.2 Mbit/s against the images' 29.8, 48.8 and 79.5, and the emulation's 42.2, 68.2 and 87.0 (at q = 20 % one seed of three at 36.9, two at 42.5 and 47.4): the kernel too carries more than the images at q = 20-30 %, and ours is 5-7 Mbit/s above the kernel, at q = 40 % mostly in the loss-based flows (28.2 against 20.6 Mbit/s for the six). The kernel's loss-based flows there send skbs of 1.3-1.5 segments on average (its senders' veth counters, one 40 s run), ours of 1.7-1.8: the skbs tcp_cwnd_test's halfcwnd keeps to one segment below four segments of cwnd (tcp-compete 36) took ours from 1.73-1.80 to 1.65-1.81, a small part of the gap; what else splits the kernel's is not traced."
	const osWithLoss = osBackbone + " The document states the loss caused by each gOSNR level (about 0.2 / 0.5 / 0.8 %); crosslink derives the loss from the OSNR model and the comparison shows the two side by side. " +
		"With loss, from q = 55 % up, Jain's index is 0.988-0.997, 0.986-0.994 and 0.948-0.976 at 0.2, 0.5 and 0.8 %, where the images read 0.955-1.00. " +
		"Retransmissions at q >= 55 % are within 30 % of the images' 9, 24 and 37 a second and grow with loss (8.1-9.0, 20.3-25.8 and 32.9-43.0). " +
		"Not reached: at 0.8 % loss our BBR gets 23.1-23.3 Mbit/s at q >= 60 % against the images' 22.1, and our total is 94.8 against their 87.9 at q = 100 %: the images' totals fall with loss (92.0, 93.0, 89.8, 87.9 Mbit/s at q = 100 %) and ours barely do (95.6, 95.4, 95.1, 94.8). " +
		"With loss at q = 70 and 100 % the emulation and a real Linux 6.1 kernel running the testbed (make linux-peer, BBR v1 in BBRv2's places) agree within about a Mbit/s per controller and a few per cent on retransmissions, and the kernel's total barely falls with loss either (95.6, 95.4, 95.1 and 94.7 Mbit/s at q = 100 %, lossless and at the three losses): what lowers the images' totals is not Linux's TCP on the testbed as the peer builds it. " +
		"Pacing BBR at 0.8 of its model's rate (a diagnostic, not a mechanism; 30 s runs, tcp-compete 24) gave the images' signature, the BBR pair at about 16 Mbit/s and the total at 88.7-91.6; Linux's internal pacing by hrtimer among twenty network namespaces on shared cores, which the peer's kernel does not share with a busy host, is one candidate. " +
		"At 0.8 % loss and q = 100 % our BBR spends most of its time in the probing phase of its gain cycle, its in-flight held below the phase's target by TCP Small Queues and each phase ended by a loss; by tcp_bbr.c of Linux 5.13 (bbr_is_next_cycle_phase), Linux's BBR would do the same."
	return []Entry{
		{ID: "rc13-fig1", Document: "000", Figure: "Fig. 1", Content: "ISL examples: distances and the RTT they imply (from the geometry model)"},
		{ID: "rc13-fig2", Document: "000", Figure: "Fig. 2", Content: "wavelength striping: packets of several sources spread over 4 wavelengths per time slot (from a WDM trace)"},
		{ID: "rc13-fig3", Document: "000", Figure: "Fig. 3", Content: "worst case: one bit error makes one packet error; PER vs BER, linear worst case (Eq. 8) vs exact, for several MTUs",
			Deviation: "The document draws the worst case as a sketch; crosslink plots PER against BER, the worst-case line beside the exact 1-(1-BER)^bits."},
		{ID: "rc13-fig4", Document: "000", Figure: "Fig. 4", Content: "congestion window vs time, conventional (64 KB cap) vs scaling up"},
		{ID: "rc13-fig5", Document: "000", Figure: "Fig. 5", Content: "transmission time vs propagation time over distance at 1 and 4 Gbps"},
		{ID: "rc13-fig6", Document: "000", Figure: "Fig. 6", Content: "BER vs distance, direct and coherent detection, 1 and 4 Gbps", Deviation: lit},
		{ID: "rc13-fig7", Document: "000", Figure: "Fig. 7", Content: "goodput vs line delay at 1 Gbps, MSS 1500 to 12000 B, with and without window scaling",
			Deviation: "The document prints no run length; goodput is counted after a warm-up in which the scaling-up window falls from its slow-start overshoot to where packet errors keep it: two loss cycles of the slowest flow in the full profile; the quick profile's shorter warm-up covers two cycles at the shorter delays only. " +
				"Without window scaling the flow is window-limited: it keeps the whole segments that fit in the 65,535-byte window in flight, so its goodput is that window over the RTT and a larger MSS does not raise it (the claims on 12000 B over 1500 B without scaling up fail for that reason: " + fmt.Sprintf("%d segments of 12000 B carry %d bytes, %d of 1500 B carry %d", 65535/12000, 65535/12000*12000, 65535/1500, 65535/1500*1500) + "). " +
				"With scaling up, packet errors set the goodput, which grows as the square root of the MSS (Mathis et al. 1997) because the PER grows in proportion to it. " +
				"The scaling-up flow recovers with SACK, which the document does not name: with NewReno most recoveries of a window many times the BDP end in a timeout, after which the model restarts slow start towards 1 GB, so timeouts rather than packet errors set the goodput and runs scatter widely. The table under the figure sets every point beside its closed form (the window bound, or Mathis et al.)."},
		{ID: "rc13-fig8", Document: "000", Figure: "Fig. 8", Content: "goodput vs distance: 1 Gbps, 4 Gbps single link, 4 x 1 Gbps WDM",
			Deviation: "Drawn as the document draws it, with Table 3's packet error rate at each of Table 2's distances (the same for 1 and 4 Gbps); rc13-fig8-physics draws what the Table 1 link budget gives instead, where 4 Gbps suffers a far higher BER than 1 Gbps."},
		{ID: "rc13-tab2", Document: "000", Figure: "Table 2", Content: "ISL distance to one-way delay", Printed: true,
			Deviation: "The document divides by c = 3e8 m/s and prints four decimals; the table is drawn with those constants (constants: paper), so differences are rounding only. The exact speed of light (constants: codata) gives delays " + fmt.Sprintf("%.2f", (3e8/299792458-1)*100) + " % longer."},
		{ID: "rc13-tab3", Document: "000", Figure: "Table 3", Content: "aggregated goodput with and without wavelength striping, both detection methods", Printed: true, Deviation: tab3},
		{ID: "zh-fig-thr-6176", Document: "001", Figure: "results table", Content: "throughput vs latency, 6.176 Mbps, 100 MB transfer, by window size",
			Deviation: zhTCP + " The claim holds only with that queue: with NS's 50-packet default, slow start overflows the queue for windows above about 64 KiB, Reno's linear recovery at 0.8 s RTT takes longer than the transfer, and throughput at 400 ms keeps 0.25 of that at 10 ms (512 KiB window; 0.87 with 2000 packets, quick profile). zh-fig-thr-6176-variants draws the loss-limited cases at 50 packets."},
		{ID: "zh-fig-thr-1544", Document: "001", Figure: "results table", Content: "throughput vs latency, 1.544 Mbps, 10 KB transfer",
			Deviation: fmt.Sprintf(zhSmall, "throughput at 400 ms is 0.031 of that at 10 ms, 64 KiB window")},
		{ID: "zh-fig-rt-384-1m", Document: "001", Figure: "results table", Content: "response time vs latency, 0.384 Mbps, 1 MB transfer",
			Deviation: zhTCP + " With it no segment is lost and every point sits on the lossless bound: response time at 400 ms is 1.24 times that at 10 ms (64 KiB window: 27.89 s against 22.52 s). " +
				"The claim holds only with that queue. With NS's 50-packet default it is 2.27 (58.45 s against 25.74 s, quick profile), and the breakdown names why: slow start overshoots the 50 packets (the 128-segment window is more than the queue plus the pipe, 1 segment at 10 ms and 69 at 400 ms). " +
				"At 10 ms that costs 57 drops, 3 fast recoveries and 2 timeouts, 3.2 s over the bound, because one segment fills the pipe and the link never idles for long; " +
				"at 400 ms 15 drops, 2 fast recoveries and 1 timeout (41 segments resent, 0.5 s of serialisation) cost 30.6 s: after the timeout ssthresh is 4352 bytes (8.5 segments) and Reno's congestion avoidance adds one segment per 0.8 s round trip, so cwnd is still 28 KB, below the 35 KB pipe, when the transfer ends 40 s later: the link runs below its rate for most of the transfer (cwnd from the tcp-bulk model's time series on the same set-up). Latency is decisive for a 1 MB transfer once it loses packets, which the document's statement does not cover."},
		{ID: "zh-fig-rt-384-10k", Document: "001", Figure: "results table", Content: "response time vs latency, 0.384 Mbps, 10 KB transfer",
			Deviation: fmt.Sprintf(zhSmall, "response time at 400 ms is 15.7 times that at 10 ms, 64 KiB window")},
		{ID: "zh-fig-mbone-loss", Document: "001", Figure: "MBone table, chart 1", Content: "128 kbps / 8 fps video: packet loss over time, terrestrial multi-hop vs GEO", Deviation: mbone},
		{ID: "zh-fig-mbone-jitter", Document: "001", Figure: "MBone table, chart 2", Content: "128 kbps / 8 fps video: delay jitter over time, terrestrial multi-hop vs GEO", Deviation: mbone},
		{ID: "zh-fig-mbone-bw", Document: "001", Figure: "MBone table, chart 3", Content: "128 kbps / 8 fps video: received bandwidth over time, terrestrial multi-hop vs GEO", Deviation: mbone},
		{ID: "zh-fig-mbone-fps", Document: "001", Figure: "MBone table, chart 4", Content: "128 kbps / 8 fps video: frame rate over time, terrestrial multi-hop vs GEO", Deviation: mbone},
		{ID: "os-fig2", Document: "002", Figure: "Fig. 2", Content: "average throughput and Jain fairness index per congestion controller, lossless (gOSNR >= 20 dB)", Deviation: osLossless},
		{ID: "os-fig3", Document: "002", Figure: "Fig. 3", Content: "retransmissions and average throughput per queue size per congestion controller, lossless", Deviation: osLossless},
		{ID: "os-fig4", Document: "002", Figure: "Fig. 4", Content: "average throughput and Jain fairness index per congestion controller, 0.2 % loss (gOSNR about 19.45 dB)", Printed: true, Deviation: osWithLoss},
		{ID: "os-fig5", Document: "002", Figure: "Fig. 5", Content: "retransmissions and average throughput per queue size per congestion controller, 0.2 % loss", Printed: true, Deviation: osWithLoss},
		{ID: "os-fig6", Document: "002", Figure: "Fig. 6", Content: "average throughput and Jain fairness index per congestion controller, 0.5 % loss (gOSNR about 19.15 dB)", Printed: true, Deviation: osWithLoss},
		{ID: "os-fig7", Document: "002", Figure: "Fig. 7", Content: "retransmissions and average throughput per queue size per congestion controller, 0.5 % loss (gOSNR about 19.15 dB; the document's text gives Fig. 7 the caption of Fig. 8, Jain's index at 0.8 % loss)", Printed: true, Deviation: osWithLoss},
		{ID: "os-fig8", Document: "002", Figure: "Fig. 8", Content: "average throughput and Jain fairness index per congestion controller, 0.8 % loss (the document repeats Fig. 7's caption)", Printed: true, Deviation: osWithLoss},
		{ID: "os-fig9", Document: "002", Figure: "Fig. 9", Content: "retransmissions and average throughput per queue size per congestion controller, 0.8 % loss", Printed: true, Deviation: osWithLoss},
		{ID: "sp-fig1", Document: "004", Figure: "Fig. 1", Content: "GEO vs MEO: total goodput, 80 MB probe goodput and flows per second vs load; every run a marker, the mean a line"},
		{ID: "sp-loss", Document: "004", Figure: "text", Content: "payload loss (%) vs load, GEO vs MEO (the text quotes about 4.8 % for MEO and 2.5 % for GEO at 200 channels)", Printed: true,
			Deviation: spLoss},
	}
}
