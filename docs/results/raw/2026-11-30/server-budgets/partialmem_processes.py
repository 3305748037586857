# The default `--processes` deployment (workers -Xmx128m, cap 19,000 each) against at most 5,000
# slow clients: each sends an almost-complete request (16 KiB head + body one byte short),
# in two writes so the pending-input array doubles to ~64 KiB. No client stops reading; none
# exceeds a limit; all within --header-timeout.
# Usage: python3 partialmem_processes.py N [PROCESSES=2] [extra server args, e.g. --worker-jvm-opts=-Xmx96m]
import lib, socket, time, sys, re
N = int(sys.argv[1]); PROCS = sys.argv[2] if len(sys.argv) > 2 else '2'
s = lib.Server('--processes', PROCS, '--threads', '1', *sys.argv[3:])
P = s.port
print(s.lines[0][:160])
base = b'GET /d/cat HTTP/1.1\r\nHost: x\r\nContent-Length: 16384\r\nX-P: '
head = base + b'a' * (16384 - len(base) - 4) + b'\r\n\r\n'
msg = head + b'b' * 16383
socks = []
for i in range(N):
    try:
        c = socket.create_connection(('127.0.0.1', P), timeout=5); c.sendall(msg[:16383]); socks.append(c)
    except OSError as e:
        print('client', i, 'failed:', e); break
time.sleep(1)
for c in socks:
    try: c.sendall(msg[16383:])
    except OSError as e: pass
time.sleep(3)
import json
for port in re.findall(r'stats=http://127.0.0.1:(\d+)/', s.lines[0]):
    try: st = s.stats(int(port)); print('worker', port, 'heapMiB', st['heapUsedBytes']>>20, 'open', st['openConnections'])
    except Exception as e: print('worker', port, 'stats failed', e)
print('launcher alive:', s.p.poll() is None, 'rc', s.p.poll())
try: print('probe', lib.get('/d/cat', P)[0])
except Exception as e: print('probe failed', e)
print('server output:\n' + '\n'.join(s.lines[1:])[-2500:])
for c in socks: c.close()
print('rc', s.stop())
