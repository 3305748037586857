import io.tickwork.server.http.HttpServer;
import java.io.*;
import java.lang.management.*;
import java.net.*;
import java.nio.charset.StandardCharsets;

/** One request head sent one byte per write; the loop thread's CPU and allocation while it is read. */
public class SlowHead {
    public static void main(String[] a) throws Exception {
        int headerBytes = Integer.parseInt(a[0]);
        int bodyBytes = a.length > 1 ? Integer.parseInt(a[1]) : 0;
        HttpServer server = HttpServer.builder((req, res) -> res.append((byte) 'x'))
                .port(0).threads(1).limits(8192, 32 * 1024, 100, 32 * 1024).start();
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long loop = -1;
        for (Thread t : Thread.getAllStackTraces().keySet()) if (t.getName().startsWith("tickwork-loop")) loop = t.getId();
        StringBuilder sb = new StringBuilder(bodyBytes > 0 ? "POST" : "GET").append(" / HTTP/1.1\r\nHost: a\r\nX-Long: ");
        for (int i = 0; i < headerBytes; i++) sb.append('a');
        sb.append("\r\n");
        if (bodyBytes > 0) sb.append("Content-Length: ").append(bodyBytes).append("\r\n");
        sb.append("\r\n");
        for (int i = 0; i < bodyBytes; i++) sb.append('\n');
        byte[] req = sb.toString().getBytes(StandardCharsets.ISO_8859_1);
        for (int round = 0; round < 3; round++) {
            try (Socket s = new Socket("127.0.0.1", server.port())) {
                s.setTcpNoDelay(true);
                OutputStream out = s.getOutputStream();
                long cpu0 = mx.getThreadCpuTime(loop), al0 = mx.getThreadAllocatedBytes(loop);
                long t0 = System.nanoTime();
                for (byte b : req) { out.write(b); out.flush(); long w = System.nanoTime() + 30_000; while (System.nanoTime() < w) Thread.onSpinWait(); }
                int first = s.getInputStream().read();
                long t1 = System.nanoTime();
                long cpu = mx.getThreadCpuTime(loop) - cpu0, al = mx.getThreadAllocatedBytes(loop) - al0;
                System.out.printf("bytes %d  response %s  wall %d ms  loop cpu %d ms  loop alloc %.1f MB%n",
                        req.length, first == 'H' ? "yes" : "NO(" + first + ")", (t1 - t0) / 1_000_000, cpu / 1_000_000, al / 1e6);
            }
        }
        server.close();
    }
}
