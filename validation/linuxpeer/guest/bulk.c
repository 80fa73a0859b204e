// bulk is the guest's bulk-transfer program: what iperf3 -c HOST -w 16m
// -M 1460 -N -C CCA does to a TCP socket, with few wake-ups.
//
// It sets the same options as the document's iperf3 clients and server
// (iperf_tcp.c): SO_SNDBUF and SO_RCVBUF of 16 MiB before connect and on
// the listening socket (the kernel doubles them, so the window scale
// allows the whole buffer), TCP_CONGESTION, TCP_MAXSEG 1460 and
// TCP_NODELAY. It differs only in how it reads and writes: 4 MiB writes,
// and a receiver woken per MiB (SO_RCVLOWAT) rather than per segment. In
// a User-Mode Linux guest each wake-up of a process costs the host
// several system calls, and iperf3's receiver, woken per segment, makes
// a run hundreds of times slower than the time it simulates. The
// receive buffer of 32 MiB is never the limit, so waking the reader
// later changes no window.
//
//   bulk -s PORT BUFFER                          receive one connection
//   bulk -c HOST PORT BUFFER CCA MSS SECONDS     send for SECONDS
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static char buf[4 << 20];

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static int buffers(int fd, int size) {
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size)) {
		perror("bulk: SO_SNDBUF/SO_RCVBUF");
		return -1;
	}
	return 0;
}

static int serve(int port, int size) {
	int one = 1, lowat = 1 << 20;
	int l = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
	if (l < 0 || setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) || buffers(l, size) ||
	    bind(l, (struct sockaddr *)&a, sizeof a) || listen(l, 4)) {
		perror("bulk: listen");
		return 1;
	}
	// Listening, so a sender started after this returns finds it.
	if (fork() != 0)
		return 0;
	int fd = accept(l, NULL, NULL);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &lowat, sizeof lowat)) {
		perror("bulk: accept");
		return 1;
	}
	while (read(fd, buf, sizeof buf) > 0)
		;
	return 0;
}

static int send_for(const char *host, int port, int size, const char *cca, int mss, double seconds) {
	int one = 1;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
	if (fd < 0 || buffers(fd, size))
		return 1;
	if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cca, strlen(cca))) {
		perror("bulk: TCP_CONGESTION");
		return 1;
	}
	if (setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, sizeof mss) ||
	    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one)) {
		perror("bulk: TCP_MAXSEG/TCP_NODELAY");
		return 1;
	}
	if (inet_pton(AF_INET, host, &a.sin_addr) != 1 || connect(fd, (struct sockaddr *)&a, sizeof a)) {
		perror("bulk: connect");
		return 1;
	}
	double end = now() + seconds;
	while (now() < end)
		if (write(fd, buf, sizeof buf) < 0) {
			perror("bulk: write");
			return 1;
		}
	close(fd);
	return 0;
}

int main(int argc, char **argv) {
	if (argc == 4 && strcmp(argv[1], "-s") == 0)
		return serve(atoi(argv[2]), atoi(argv[3]));
	if (argc == 8 && strcmp(argv[1], "-c") == 0)
		return send_for(argv[2], atoi(argv[3]), atoi(argv[4]), argv[5], atoi(argv[6]), atof(argv[7]));
	fprintf(stderr, "usage: bulk -s PORT BUFFER | bulk -c HOST PORT BUFFER CCA MSS SECONDS\n");
	return 2;
}
