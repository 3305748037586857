/**
 * Servers built from peer projects, used as yardsticks: {@link io.tickwork.peers.NettyHttpAnchor}
 * (Netty 4.2 answering a fixed body over HTTP/1.1) is run beside tickwork's dictionary server by the
 * same load clients in the same run, so that one run gives the ratio. The C and Go ping-pong servers
 * beside this module ({@code peers/pingpong-c}, {@code peers/pingpong-go}) play the same role for
 * the ping-pong client. Measurement only, never product; see {@code docs/results/anchors.md}.
 */
package io.tickwork.peers;
