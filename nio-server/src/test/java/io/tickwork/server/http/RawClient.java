package io.tickwork.server.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A blocking test client over a raw socket: writes exact bytes, reads responses framed by Content-Length. */
final class RawClient implements AutoCloseable {
    final Socket socket;
    final InputStream in;
    final OutputStream out;

    RawClient(int port) throws IOException {
        this(port, 10_000);
    }

    RawClient(int port, int soTimeoutMillis) throws IOException {
        this(port, soTimeoutMillis, 0);
    }

    /** {@code receiveBuffer} (&gt; 0) is set before the connect, so it bounds the window offered. */
    RawClient(int port, int soTimeoutMillis, int receiveBuffer) throws IOException {
        socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setSoTimeout(soTimeoutMillis);
        socket.setTcpNoDelay(true);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    RawClient send(String s) throws IOException {
        return send(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    RawClient send(byte[] b) throws IOException {
        out.write(b);
        out.flush();
        return this;
    }

    record Response(int status, Map<String, String> headers, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** Reads one response; {@code head} says the request was HEAD (no body despite Content-Length). */
    Response read(boolean head) throws IOException {
        String statusLine = line();
        if (statusLine == null) {
            throw new IOException("connection closed before a response");
        }
        if (!statusLine.startsWith("HTTP/1.1 ")) {
            throw new IOException("bad status line: " + statusLine);
        }
        int status = Integer.parseInt(statusLine.substring(9, 12));
        Map<String, String> headers = new LinkedHashMap<>();
        for (String l; !(l = line()).isEmpty(); ) {
            int c = l.indexOf(':');
            headers.put(
                    l.substring(0, c).toLowerCase(Locale.ROOT),
                    l.substring(c + 1).trim());
        }
        String cl = headers.get("content-length");
        if (status == 204 || status == 304) {
            if (cl != null) {
                throw new IOException("a " + status + " with a Content-Length: " + headers); // RFC 9110 8.6
            }
            return new Response(status, headers, new byte[0]);
        }
        if (cl == null) {
            throw new IOException("response without Content-Length: " + statusLine + " " + headers);
        }
        byte[] body = head ? new byte[0] : in.readNBytes(Integer.parseInt(cl));
        if (body.length != (head ? 0 : Integer.parseInt(cl))) {
            throw new IOException("short body");
        }
        return new Response(status, headers, body);
    }

    Response read() throws IOException {
        return read(false);
    }

    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != '\n') {
            if (c < 0) {
                return b.size() == 0 ? null : b.toString(StandardCharsets.ISO_8859_1);
            }
            b.write(c);
        }
        String s = b.toString(StandardCharsets.ISO_8859_1);
        if (!s.endsWith("\r")) {
            throw new IOException("header line without CR: " + s);
        }
        return s.substring(0, s.length() - 1);
    }

    /** True if the server closed the connection (EOF or reset) before the socket timeout; false if it stayed open. */
    boolean closedByServer() throws IOException {
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    /** Reads and discards until the server closes; false if it is still open after the socket timeout. */
    boolean closedByServerEventually() throws IOException {
        byte[] b = new byte[8192];
        try {
            while (in.read(b) >= 0) {
                // discard the error response
            }
            return true;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
