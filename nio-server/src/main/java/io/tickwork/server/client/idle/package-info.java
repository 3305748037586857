/**
 * The {@code idle} tool: opens and holds many idle connections from one selector thread,
 * spread over loopback source addresses so the ephemeral port range applies per address,
 * explains each operating-system limit it hits, optionally runs the http-kit workload (idle,
 * request, read, repeat), and reports client and server memory per connection.
 */
package io.tickwork.server.client.idle;
