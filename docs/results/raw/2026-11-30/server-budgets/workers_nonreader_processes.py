# The deployment `--processes 2 --workers 2` (workers -Xmx128m by default): N clients each
# pipeline 64 KiB of /s/a?limit=1000 requests and never read.
# Usage: python3 workers_nonreader_processes.py N
import lib, socket, time, sys, re
N = int(sys.argv[1])
s = lib.Server('--processes', '2', '--threads', '1', '--workers', '2')
P = s.port
req = b'GET /s/a?limit=1000 HTTP/1.1\r\nHost: x\r\n\r\n'
socks = []
for i in range(N):
    try:
        c = socket.socket(); c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096); c.connect(('127.0.0.1', P)); c.setblocking(False)
        try: c.send(req * (65536 // len(req)))
        except OSError: pass
        socks.append(c)
    except OSError as e: print('client', i, e); break
time.sleep(8)
print('launcher alive:', s.p.poll() is None, 'rc', s.p.poll())
try: print('probe', lib.get('/d/cat', s.port)[0])
except Exception as e: print('probe failed', e)
print('\n'.join(l for l in s.lines[1:] if 'worker failed' not in l)[-2000:])
for c in socks: c.close()
print('rc', s.stop())
