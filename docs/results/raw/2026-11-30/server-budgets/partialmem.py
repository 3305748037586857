# N clients each send an almost-complete request (16 KiB head + body one byte short) and wait.
# A --processes worker has -Xmx128m by default.
# Usage: python3 partialmem.py N XMX [extra server args...]
import lib, socket, time, sys
N = int(sys.argv[1]); XMX = sys.argv[2]
s = lib.Server('--threads', '2', *sys.argv[3:], jvm=['-XX:+UseSerialGC', '-Xms8m', '-Xmx' + XMX])
P = s.port
base = b'GET /d/cat HTTP/1.1\r\nHost: x\r\nContent-Length: 16384\r\nX-P: '
head = base + b'a' * (16384 - len(base) - 4) + b'\r\n\r\n'
assert len(head) == 16384
msg = head + b'b' * 16383
socks = []
t0 = time.time()
for i in range(N):
    try:
        c = socket.create_connection(('127.0.0.1', P), timeout=5)
        c.sendall(msg)
        socks.append(c)
    except OSError as e:
        print('client', i, 'failed:', e, 'alive', s.p.poll()); break
    if i % 1000 == 999:
        try: st = s.stats(); print(i+1, 'conns t=%.1f heapMiB=%d open=%d' % (time.time()-t0, st['heapUsedBytes']>>20, st['openConnections']), flush=True)
        except Exception as e: print(i+1, 'stats failed', e, 'alive', s.p.poll(), flush=True)
time.sleep(2)
print('alive:', s.p.poll() is None, 'rc', s.p.poll())
try: print('probe', lib.get('/d/cat', P)[0], 'stats', s.stats())
except Exception as e: print('probe failed', e)
print('server output:\n' + '\n'.join(s.lines[1:])[-2500:])
for c in socks: c.close()
print('rc', s.stop())
