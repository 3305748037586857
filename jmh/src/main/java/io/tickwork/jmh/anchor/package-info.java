/**
 * Anchors: minimal servers built from peer projects, used as yardsticks (a Netty 4.1 HTTP server
 * answering a fixed 1 KB body), run beside tickwork's server in the same run so that one run gives
 * the ratio. Measurement only, never product; see {@code docs/results/anchors.md}.
 */
package io.tickwork.jmh.anchor;
