/**
 * Every tickwork benchmark, each variant beside the peers a user would otherwise pick.
 */
package io.tickwork.jmh;
