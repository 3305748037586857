# Do non-reading pipeliners stall other clients? A probe thread times GET /d/cat every 0.25 s while
# N clients each pipeline ~200 KB of /s/a?limit=1000 requests and never read.
# Usage: [EXTRA="--workers 2"] python3 stall.py N [XMX=128m] [threads=2]
import lib, socket, time, sys, threading
N = int(sys.argv[1]); XMX = sys.argv[2] if len(sys.argv) > 2 else '128m'; T = sys.argv[3] if len(sys.argv) > 3 else '2'
import os
s = lib.Server('--threads', T, '--idle-timeout', '20s', *os.environ.get('EXTRA', '').split(), jvm=['-XX:+UseSerialGC', '-Xms8m', '-Xmx' + XMX])
P = s.port
stop = False; probes = []
def prober():
    t0 = time.time()
    while not stop:
        t = time.time()
        try:
            c = lib.conn(P, timeout=10); c.sendall(b'GET /d/cat HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
            d, how = lib.recv_all(c, 10); c.close(); r = (d[9:12].decode() or 'EMPTY') + '/' + how
        except Exception as e: r = type(e).__name__
        probes.append((round(t - t0, 2), round(time.time() - t, 3), r))
        time.sleep(0.25)
th = threading.Thread(target=prober); th.start()
time.sleep(1)
req = b'GET /s/a?limit=1000 HTTP/1.1\r\nHost: x\r\n\r\n'
blob = req * (200000 // len(req))
socks = []
ta = time.time()
for i in range(N):
    c = socket.socket(); c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096); c.connect(('127.0.0.1', P)); c.setblocking(False)
    try: c.send(blob[:65536])
    except OSError: pass
    socks.append(c)
print('attack sent in %.1fs' % (time.time() - ta), flush=True)
time.sleep(12)
stop = True; th.join()
slow = [p for p in probes if p[1] > 0.5 or not p[2].startswith('200')]
print('probes: %d, max latency %.2fs, slow/failed: %s' % (len(probes), max(p[1] for p in probes), slow[:20]))
st = s.stats(); print('stats open=%d accepted=%d requests=%d heapMiB=%d' % (st['openConnections'], st['acceptedConnections'], st['requests'], st['heapUsedBytes'] >> 20))
print('server log:', s.lines[1:])
for c in socks: c.close()
print('rc', s.stop())
