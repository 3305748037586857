/*
 * Measurement anchor for `LoadTool pingpong`: the same workload in C with epoll, to find what
 * this machine's loopback TCP and scheduler allow. Not part of the Maven build (built by
 * docs/results/many-core/run.sh with gcc).
 *
 *   gcc -O2 -o /tmp/epoll_pingpong peers/pingpong-c/epoll_pingpong.c
 *   /tmp/epoll_pingpong [-c 100] [-n 1000000] [-w 100000] [-s] [-S cpu] [-C cpu]
 *
 * Forks a server process (one epoll loop, answers "Pong" for every 4 bytes read) and runs the
 * client in the parent (one epoll loop, C connections, one 4-byte "Ping" in flight each, -w
 * unmeasured round trips, then -n measured). Prints total time / round trips (us per ping, the
 * figure the Java client prints). -s: busy-poll (epoll_wait with timeout 0) on both sides. -S/-C: pin the server
 * and the client to a CPU.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int spin;

static void die(const char *what) { perror(what); exit(1); }

static void pin(int cpu) {
  if (cpu < 0) return;
  cpu_set_t s;
  CPU_ZERO(&s);
  CPU_SET(cpu, &s);
  if (sched_setaffinity(0, sizeof s, &s) != 0) die("sched_setaffinity");
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static void serve(int lfd, int conns) {
  int ep = epoll_create1(0);
  struct epoll_event ev = {.events = EPOLLIN}, evs[256];
  int one = 1, accepted = 0;
  while (accepted < conns) {
    int fd = accept(lfd, NULL, NULL);
    if (fd < 0) die("accept");
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ev.data.fd = fd;
    if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) != 0) die("epoll_ctl");
    accepted++;
  }
  char buf[4096], out[4096];
  for (int i = 0; i < (int) sizeof out; i += 4) memcpy(out + i, "Pong", 4);
  int *partial = calloc(65536, sizeof(int));
  int open = conns;
  while (open > 0) {
    int n = epoll_wait(ep, evs, 256, spin ? 0 : -1);
    for (int i = 0; i < n; i++) {
      int fd = evs[i].data.fd;
      ssize_t r = read(fd, buf, sizeof buf);
      if (r <= 0) { close(fd); open--; continue; }
      int bytes = partial[fd] + (int) r;
      partial[fd] = bytes & 3;
      if (bytes >= 4 && write(fd, out, (size_t) (bytes & ~3)) != (bytes & ~3)) die("write");
    }
  }
}

static long run(int ep, int *fds, int conns, long pings, long *sent) {
  struct epoll_event evs[256];
  char buf[4096];
  long done = 0;
  for (int i = 0; i < conns && *sent < pings; i++, (*sent)++)
    if (write(fds[i], "Ping", 4) != 4) die("write");
  while (done < pings) {
    int n = epoll_wait(ep, evs, 256, spin ? 0 : -1);
    for (int i = 0; i < n; i++) {
      int fd = evs[i].data.fd;
      ssize_t r = read(fd, buf, sizeof buf);
      if (r <= 0) die("client read");
      if (r != 4) { fprintf(stderr, "partial pong: %zd\n", r); exit(1); }
      done++;
      if (*sent < pings) {
        if (write(fd, "Ping", 4) != 4) die("write");
        (*sent)++;
      }
    }
  }
  return done;
}

int main(int argc, char **argv) {
  int conns = 100, scpu = -1, ccpu = -1;
  long pings = 1000000, warm = 100000;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-c") && i + 1 < argc) conns = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-n") && i + 1 < argc) pings = atol(argv[++i]);
    else if (!strcmp(argv[i], "-w") && i + 1 < argc) warm = atol(argv[++i]);
    else if (!strcmp(argv[i], "-S") && i + 1 < argc) scpu = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-C") && i + 1 < argc) ccpu = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-s")) spin = 1;
    else { fprintf(stderr, "usage: %s [-c C] [-n N] [-w W] [-s] [-S cpu] [-C cpu]\n", argv[0]); return 2; }
  }
  int lfd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t alen = sizeof a;
  setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(lfd, (struct sockaddr *) &a, sizeof a) || listen(lfd, 1024)) die("bind/listen");
  getsockname(lfd, (struct sockaddr *) &a, &alen);
  pid_t pid = fork();
  if (pid < 0) die("fork");
  if (pid == 0) { pin(scpu); serve(lfd, conns); _exit(0); }
  pin(ccpu);
  close(lfd);
  int ep = epoll_create1(0), *fds = malloc(sizeof(int) * conns);
  for (int i = 0; i < conns; i++) {
    fds[i] = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(fds[i], (struct sockaddr *) &a, sizeof a)) die("connect");
    setsockopt(fds[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = fds[i]};
    if (epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &ev)) die("epoll_ctl");
  }
  long sent = 0;
  run(ep, fds, conns, warm, &sent);
  sent = 0;
  double t0 = now_s();
  long done = run(ep, fds, conns, pings, &sent);
  double t = now_s() - t0;
  printf("c: %d connections, %ld pings in %.3f s: %.2f us/ping, %.0f pings/s%s%s\n", conns,
         done, t, t * 1e6 / done, done / t, spin ? " (busy-poll)" : "",
         scpu >= 0 || ccpu >= 0 ? " (pinned)" : "");
  for (int i = 0; i < conns; i++) close(fds[i]);
  waitpid(pid, NULL, 0);
  return 0;
}
