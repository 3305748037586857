/**
 * The {@code bench} tool: HTTP/1.1 load over keep-alive connections, closed loop (keep-alive or
 * pipelined, a fixed number of requests in flight per connection) or open loop at a fixed rate
 * with latency measured from each request's intended send time (coordinated-omission
 * correction). One selector thread per {@code --threads}, each owning its connections; a
 * reporter thread prints a line per second and merges the result.
 */
package io.tickwork.client.bench;
