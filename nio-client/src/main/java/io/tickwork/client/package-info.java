/**
 * Selector-based load clients for keep-alive servers, behind one launcher, {@link
 * io.tickwork.client.LoadTool}: {@code idle} holds many idle connections spread over
 * source addresses of this machine ({@code idle-merge} sums the results of several runs), {@code
 * bench} drives HTTP/1.1 requests closed-loop (keep-alive or pipelined) or open-loop at a fixed
 * rate corrected for coordinated omission, and {@code pingpong} compares server threading models
 * on a 4-byte TCP round trip. Every run is bounded in time and count; a target may be any host
 * (the tests and the project's own measurements use loopback). This package holds the launcher
 * only; each tool has its own package ({@code bench}, {@code idle}, {@code pingpong}), and what
 * they share is in {@code common}, which depends on no tool.
 */
package io.tickwork.client;
