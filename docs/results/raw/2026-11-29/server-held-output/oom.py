import socket, time, sys, os, subprocess, json, urllib.request, threading, re
JAR='/work/main/nio-server/target/tickwork-server.jar'
P=int(sys.argv[1]); N=int(sys.argv[2]); DUR=float(sys.argv[3]); path=sys.argv[4].encode(); extra=sys.argv[5:]
t0=time.time()
L=subprocess.Popen(['java','-jar',JAR,'--port',str(P),'--processes','2','--threads','1']+extra,stdout=subprocess.PIPE,stderr=subprocess.PIPE)
lines=[]
def pump(f,tag):
    for l in f: lines.append('%6.2f %s %s'%(time.time()-t0,tag,l.decode().rstrip()))
threading.Thread(target=pump,args=(L.stdout,'OUT'),daemon=True).start()
threading.Thread(target=pump,args=(L.stderr,'ERR'),daemon=True).start()
while not any('tickwork dictionary:' in l for l in lines) and time.time()-t0<30: time.sleep(0.1)
start=[l for l in lines if 'tickwork dictionary:' in l][0]
pids=[int(x) for x in re.findall(r'pid=(\d+)',start)]
def rss(p):
    try: return int(open('/proc/%d/status'%p).read().split('VmRSS:')[1].split()[0])
    except Exception: return -1
req=b'GET '+path+b' HTTP/1.1\r\nHost: x\r\n\r\n'; chunk=req*200
socks=[]
for i in range(N):
    s=socket.socket()
    if os.environ.get("RCV"): s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, int(os.environ["RCV"]))
    s.connect(('127.0.0.1',P)); s.setblocking(False); socks.append(s)
tc=time.time(); last=0
while time.time()-tc<DUR and L.poll() is None:
    for i,s in enumerate(socks):
        if s is None: continue
        try: s.send(chunk)
        except BlockingIOError: pass
        except OSError: socks[i]=None
    if time.time()-last>3:
        last=time.time(); print('t=%5.1f rss=%s alive=%d launcher=%s'%(time.time()-tc,[rss(p) for p in pids],sum(1 for s in socks if s),L.poll()),flush=True)
    time.sleep(0.05)
# probe
try:
    s=socket.create_connection(('127.0.0.1',P),timeout=2); s.sendall(b'GET /d/cat HTTP/1.1\r\nHost: x\r\n\r\n'); s.settimeout(3); print('probe:', s.recv(40))
except Exception as e: print('probe:', repr(e))
for s in socks:
    if s: s.close()
if L.poll() is None:
    L.terminate()
try: print('launcher exit', L.wait(40), 'at t+%.1f'%(time.time()-tc))
except subprocess.TimeoutExpired: L.kill(); print('launcher killed')
time.sleep(0.5)
for l in lines[1:]: print(l[:400])
