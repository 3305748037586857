package io.tickwork.peers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Netty anchor on both transports sends exactly the body it was given, with its length, and
 * keeps an HTTP/1.1 connection open for pipelined requests: the same work per request as the
 * dictionary server, or the comparison is not fair.
 */
class NettyHttpAnchorTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"epoll", "nio"})
    void answersPipelinedRequestsWithTheGivenBody(String transport) throws Exception {
        assumeTrue(!transport.equals("epoll") || io.netty.channel.epoll.Epoll.isAvailable(), "epoll: Linux only");
        byte[] body = "{\"word\":\"dictionary\",\"senses\":[]}".getBytes(StandardCharsets.UTF_8);
        Path file = Files.write(tmp.resolve("body.json"), body);
        try (NettyHttpAnchor.Running anchor = NettyHttpAnchor.start(0, transport, 2, file);
                Socket s = new Socket("127.0.0.1", anchor.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            String req = "GET /d/dictionary HTTP/1.1\r\nHost: a\r\n\r\n";
            out.write((req + req).getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            for (int i = 0; i < 2; i++) {
                String head = readHead(in);
                assertTrue(head.startsWith("HTTP/1.1 200 OK"), head);
                assertTrue(head.contains("content-length: " + body.length), head);
                assertTrue(head.contains("application/json"), head);
                assertArrayEquals(body, in.readNBytes(body.length));
            }
            assertEquals(body.length, anchor.bodyBytes);
        }
    }

    private static String readHead(InputStream in) throws Exception {
        StringBuilder sb = new StringBuilder();
        while (!sb.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                throw new IllegalStateException("closed after: " + sb);
            }
            sb.append((char) c);
        }
        return sb.toString();
    }
}
