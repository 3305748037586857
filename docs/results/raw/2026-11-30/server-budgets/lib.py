import subprocess, socket, time, re, os, signal, atexit, json, sys, threading
JAR = os.environ.get('JAR') or os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', '..', 'nio-server', 'target', 'tickwork-server.jar')
_procs = []
def _cleanup():
    for p in _procs:
        try:
            if p.poll() is None:
                p.kill()
        except Exception: pass
atexit.register(_cleanup)
signal.signal(signal.SIGTERM, lambda *a: (_cleanup(), sys.exit(1)))

class Server:
    def __init__(self, *args, java='java', jvm=(), logfile=None):
        self.log = open(logfile or '/tmp/tickwork-srv-%d.log' % os.getpid(), 'w+')
        self.p = subprocess.Popen([java, *jvm, '-jar', JAR, '--port', '0', *args],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        _procs.append(self.p)
        self.lines = []
        self.started = threading.Event()
        self.port = None
        threading.Thread(target=self._pump, daemon=True).start()
        if not self.started.wait(30):
            raise RuntimeError('no start line: %r' % self.lines)
    def _pump(self):
        for line in self.p.stdout:
            self.lines.append(line.rstrip('\n'))
            self.log.write(line); self.log.flush()
            m = re.search(r'http://127\.0\.0\.1:(\d+)/', line)
            if m and self.port is None:
                self.port = int(m.group(1)); self.started.set()
    def stats(self, port=None):
        return json.loads(get('/stats', port or self.port)[2])
    def stop(self, sig=signal.SIGTERM, wait=15):
        if self.p.poll() is None:
            self.p.send_signal(sig)
        try: self.p.wait(wait)
        except subprocess.TimeoutExpired: self.p.kill(); self.p.wait()
        time.sleep(0.2)
        return self.p.returncode

def conn(port, timeout=5):
    s = socket.create_connection(('127.0.0.1', port), timeout=timeout)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s

def recv_all(s, timeout=3):
    s.settimeout(timeout); out = b''
    try:
        while True:
            d = s.recv(65536)
            if not d: return out, 'EOF'
            out += d
    except socket.timeout: return out, 'TIMEOUT'
    except ConnectionResetError: return out, 'RST'

def raw(port, data, timeout=3, shut=False):
    s = conn(port)
    s.sendall(data)
    if shut: s.shutdown(socket.SHUT_WR)
    r = recv_all(s, timeout); s.close(); return r

def get(path, port, method='GET'):
    s = conn(port)
    s.sendall(('%s %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n' % (method, path)).encode())
    data, how = recv_all(s, 5); s.close()
    head, _, body = data.partition(b'\r\n\r\n')
    status = int(head.split(b' ')[1]) if head else None
    return status, head.decode('latin1'), body.decode('utf-8', 'replace')

def status_lines(data):
    return [m.decode('latin1') for m in re.findall(rb'HTTP/1\.[01] \d{3}[^\r\n]*', data)]

def fds(pid):
    return len(os.listdir('/proc/%d/fd' % pid))
