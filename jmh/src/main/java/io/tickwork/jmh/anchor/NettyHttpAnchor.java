package io.tickwork.jmh.anchor;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
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
import java.net.InetSocketAddress;
import java.util.Arrays;

/**
 * A minimal Netty 4.1 HTTP server ({@code HttpServerCodec}, NIO transport, JDK 17) used as an
 * anchor: run beside the dictionary server in the same run, on the same machine, so that one run
 * gives the ratio between the two. A yardstick, not a product.
 *
 * <p>It answers every request, whatever its method or path, with {@code 200} and the same fixed
 * 1,024-byte {@code text/plain} body with {@code Content-Length}. Keep-alive follows
 * {@link HttpUtil#isKeepAlive}: HTTP/1.1 stays open unless the request says {@code Connection:
 * close}; HTTP/1.0 stays open only when it asks for {@code keep-alive} (and then the response says
 * so); otherwise the channel closes after the response. No {@code HttpObjectAggregator}: the
 * response goes out on the request head, request bodies are dropped by the inbound handler.
 *
 * <p>Threads and cost: one NIO event loop group of 2 threads does both accept and I/O (the
 * machine it is measured on has 2 cores, like the dictionary server's default of one loop per
 * core). Responses are written per request and flushed once per read batch
 * ({@code channelReadComplete}), as Netty's own hello-world example does; the body is one shared
 * unreleasable direct buffer, duplicated per response, so nothing is copied. {@code TCP_NODELAY}
 * is on (Netty's default). Binds 127.0.0.1 only.
 *
 * <p>Run: {@code java -cp jmh/target/benchmarks.jar io.tickwork.jmh.anchor.NettyHttpAnchor 9402}.
 */
public final class NettyHttpAnchor {

    /** Size of the fixed response body: 1 KB, the body size of the anchor workload. */
    static final int BODY_BYTES = 1024;

    private static final ByteBuf BODY;

    static {
        byte[] bytes = new byte[BODY_BYTES];
        Arrays.fill(bytes, (byte) 'x');
        bytes[BODY_BYTES - 1] = '\n';
        BODY = Unpooled.unreleasableBuffer(Unpooled.directBuffer(BODY_BYTES).writeBytes(bytes))
                .asReadOnly();
    }

    private NettyHttpAnchor() {}

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 1) {
            System.err.println("usage: NettyHttpAnchor PORT   (binds 127.0.0.1:PORT, 2 NIO loops)");
            System.exit(2);
        }
        int port;
        try {
            port = Integer.parseInt(args[0]);
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 0 || port > 65535) {
            System.err.println("error: PORT must be 0..65535: " + args[0]);
            System.exit(2);
        }
        EventLoopGroup group = new NioEventLoopGroup(2);
        try {
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 4096)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(), new FixedResponder());
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", port))
                    .sync()
                    .channel();
            InetSocketAddress bound = (InetSocketAddress) server.localAddress();
            System.out.println("netty anchor: http://127.0.0.1:" + bound.getPort()
                    + "/  (fixed " + BODY_BYTES + "-byte body, 2 NIO loops, Netty "
                    + io.netty.util.Version.identify()
                            .getOrDefault("netty-common", null)
                            .artifactVersion() + ")");
            Runtime.getRuntime().addShutdownHook(new Thread(group::shutdownGracefully));
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }

    /** Answers each request head with the fixed body; one instance per channel. */
    private static final class FixedResponder extends SimpleChannelInboundHandler<HttpObject> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            if (!(msg instanceof HttpRequest request)) {
                return; // body chunks and LastHttpContent: released by the superclass
            }
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            FullHttpResponse response =
                    new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.OK, BODY.duplicate());
            response.headers()
                    .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, BODY_BYTES);
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
