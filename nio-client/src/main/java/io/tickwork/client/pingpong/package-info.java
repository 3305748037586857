/**
 * The {@code pingpong} tool: 4-byte Ping/Pong round trips over persistent connections, to
 * compare server threading models ({@link io.tickwork.client.pingpong.PingPongModel}: one
 * selector thread, a platform or virtual thread per connection, a Kilim coroutine per
 * connection) under the same selector-based client, in one process or as separate server and
 * client.
 */
package io.tickwork.client.pingpong;
