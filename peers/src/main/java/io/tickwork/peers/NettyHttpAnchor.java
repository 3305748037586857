package io.tickwork.peers;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A minimal Netty 4.2 HTTP server ({@code HttpServerCodec}) used as an anchor: run beside the
 * dictionary server in the same run, on the same machine, so that one run gives the ratio between
 * the two. A yardstick, not a product.
 *
 * <p>It answers every request, whatever its method or path, with {@code 200} and the same fixed
 * body with {@code Content-Length}: by default 1,024 bytes of {@code text/plain}, or with
 * {@code --body FILE} the bytes of that file as {@code application/json}, so that it sends exactly
 * what the dictionary server sends for one word (save {@code curl -s 127.0.0.1:9090/d/dictionary}
 * to a file). Keep-alive follows {@link HttpUtil#isKeepAlive}: HTTP/1.1 stays open unless the
 * request says {@code Connection: close}; HTTP/1.0 stays open only when it asks for
 * {@code keep-alive} (and then the response says so); otherwise the channel closes after the
 * response. No {@code HttpObjectAggregator}: the response goes out on the request head, request
 * bodies are dropped by the inbound handler.
 *
 * <p>Transport: {@code epoll} (the default on Linux: Netty's native transport, its faster one
 * there) or {@code nio}, both with Netty 4.2's {@code MultiThreadIoEventLoopGroup} doing accept
 * and I/O, {@code --threads N} loops (default 2: the 2-core machine the project is measured on,
 * like the dictionary server's default of one loop per core). Responses are written per request and flushed once per read
 * batch ({@code channelReadComplete}), as Netty's own hello-world example does; the body is one
 * shared unreleasable direct buffer, duplicated per response, so nothing is copied.
 * {@code TCP_NODELAY} is on (Netty's default). Binds 127.0.0.1 only.
 *
 * <p>Run: {@code java -jar peers/target/tickwork-peers.jar 9402 [--transport epoll|nio]
 * [--threads N] [--body FILE]}.
 */
public final class NettyHttpAnchor {

    /** Size of the default response body: 1 KB. */
    static final int BODY_BYTES = 1024;

    private NettyHttpAnchor() {}

    static final String USAGE =
            "usage: NettyHttpAnchor PORT [--transport epoll|nio] [--threads N] [--body FILE]   (binds 127.0.0.1:PORT; 2 loops by default)";

    public static void main(String[] args) throws InterruptedException, IOException {
        int port = -1;
        String transport = Epoll.isAvailable() ? "epoll" : "nio";
        Path bodyFile = null;
        int threads = 2;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--transport") && i + 1 < args.length) {
                transport = args[++i];
            } else if (a.equals("--threads") && i + 1 < args.length && args[i + 1].matches("\\d{1,4}")) {
                threads = Integer.parseInt(args[++i]);
            } else if (a.equals("--body") && i + 1 < args.length) {
                bodyFile = Path.of(args[++i]);
            } else if (port < 0 && a.matches("\\d{1,5}")) {
                port = Integer.parseInt(a);
            } else {
                usage("unexpected argument: " + a);
            }
        }
        if (port < 0 || port > 65535) {
            usage("PORT must be 0..65535");
        }
        if (threads < 1 || threads > 1024) {
            usage("--threads must be 1..1024");
        }
        if (!transport.equals("epoll") && !transport.equals("nio")) {
            usage("--transport must be epoll or nio: " + transport);
        }
        Running anchor = start(port, transport, threads, bodyFile);
        System.out.println("netty anchor: http://127.0.0.1:" + anchor.port() + "/  (fixed " + anchor.bodyBytes
                + "-byte body, " + threads + " " + transport + " loops, Netty "
                + io.netty.util.Version.identify()
                        .getOrDefault("netty-common", null)
                        .artifactVersion() + ")");
        Runtime.getRuntime().addShutdownHook(new Thread(anchor::close));
        anchor.server.closeFuture().sync();
    }

    /** A started anchor: its server channel and event loops. */
    static final class Running implements AutoCloseable {
        final Channel server;
        final EventLoopGroup group;
        final int bodyBytes;

        Running(Channel server, EventLoopGroup group, int bodyBytes) {
            this.server = server;
            this.group = group;
            this.bodyBytes = bodyBytes;
        }

        int port() {
            return ((InetSocketAddress) server.localAddress()).getPort();
        }

        @Override
        public void close() {
            server.close().syncUninterruptibly();
            group.shutdownGracefully().syncUninterruptibly();
        }
    }

    /** Binds 127.0.0.1:{@code port} (0: any free port) on {@code transport} (epoll or nio) with {@code threads} loops. */
    static Running start(int port, String transport, int threads, Path bodyFile)
            throws IOException, InterruptedException {
        IoHandlerFactory ioHandler;
        Class<? extends ServerChannel> channel;
        switch (transport) {
            case "epoll" -> {
                Epoll.ensureAvailability();
                ioHandler = EpollIoHandler.newFactory();
                channel = EpollServerSocketChannel.class;
            }
            case "nio" -> {
                ioHandler = NioIoHandler.newFactory();
                channel = NioServerSocketChannel.class;
            }
            default -> throw new IllegalArgumentException("--transport must be epoll or nio: " + transport);
        }
        byte[] bytes;
        CharSequence contentType;
        if (bodyFile == null) {
            bytes = new byte[BODY_BYTES];
            Arrays.fill(bytes, (byte) 'x');
            bytes[BODY_BYTES - 1] = '\n';
            contentType = HttpHeaderValues.TEXT_PLAIN;
        } else {
            bytes = Files.readAllBytes(bodyFile);
            contentType = HttpHeaderValues.APPLICATION_JSON;
        }
        ByteBuf body = Unpooled.unreleasableBuffer(
                        Unpooled.directBuffer(bytes.length).writeBytes(bytes))
                .asReadOnly();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, ioHandler);
        try {
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(channel)
                    .option(ChannelOption.SO_BACKLOG, 4096)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(), new FixedResponder(body, contentType));
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", port))
                    .sync()
                    .channel();
            return new Running(server, group, bytes.length);
        } catch (RuntimeException | InterruptedException e) {
            group.shutdownGracefully();
            throw e;
        }
    }

    private static void usage(String problem) {
        System.err.println("error: " + problem);
        System.err.println(USAGE);
        System.exit(2);
    }

    /** Answers each request head with the fixed body; one instance per channel. */
    private static final class FixedResponder extends SimpleChannelInboundHandler<HttpObject> {
        private final ByteBuf body;
        private final CharSequence contentType;

        FixedResponder(ByteBuf body, CharSequence contentType) {
            this.body = body;
            this.contentType = contentType;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            if (!(msg instanceof HttpRequest request)) {
                return; // body chunks and LastHttpContent: released by the superclass
            }
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            FullHttpResponse response =
                    new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.OK, body.duplicate());
            response.headers()
                    .set(HttpHeaderNames.CONTENT_TYPE, contentType)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
            if (keepAlive) {
                if (!request.protocolVersion().isKeepAliveDefault()) {
                    response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
                }
                ctx.write(response);
            } else {
                response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close(); // a reset or garbage from one client closes that channel only
        }
    }
}
