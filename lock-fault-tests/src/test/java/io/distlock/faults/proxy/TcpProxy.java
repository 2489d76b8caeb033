/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package io.distlock.faults.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on {@code 127.0.0.1} in front of one target, for injecting network faults
 * between a client and Redis: added latency in both directions, dropped connections
 * (reset), and stalled connections (nothing forwarded, connections kept open, everything
 * delivered late once resumed, as after a healed partition).
 *
 * <p>
 * Each connection gets a reader and a writer thread per direction; the readers queue what
 * they read with the time it is due, and the writers forward it in order once due and not
 * stalled.
 */
public final class TcpProxy implements AutoCloseable {

	private final ServerSocket server;

	private volatile InetSocketAddress target;

	private final Set<Link> links = ConcurrentHashMap.newKeySet();

	private final Object stallMonitor = new Object();

	private final AtomicInteger accepted = new AtomicInteger();

	private final AtomicInteger dropped = new AtomicInteger();

	private volatile long delayNanos;

	private volatile boolean stalled;

	private volatile boolean closed;

	private TcpProxy(ServerSocket server, InetSocketAddress target) {
		this.server = server;
		this.target = target;
	}

	/**
	 * Start a proxy on a free port of {@code 127.0.0.1}.
	 * @param targetHost the host to forward to
	 * @param targetPort the port to forward to
	 * @return the running proxy, to be closed by the caller
	 */
	public static TcpProxy start(String targetHost, int targetPort) {
		try {
			ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
			TcpProxy proxy = new TcpProxy(server, new InetSocketAddress(targetHost, targetPort));
			Thread acceptor = new Thread(proxy::accept, "tcp-proxy-accept-" + server.getLocalPort());
			acceptor.setDaemon(true);
			acceptor.start();
			return proxy;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Return the port the proxy listens on.
	 * @return the port
	 */
	public int port() {
		return this.server.getLocalPort();
	}

	/**
	 * Delay everything forwarded from now on, in each direction, by the given time.
	 * @param delay the added one-way latency; zero for none
	 */
	public void delay(Duration delay) {
		this.delayNanos = delay.toNanos();
	}

	/**
	 * Stop forwarding on every connection, new ones included; the connections stay open.
	 */
	public void stall() {
		this.stalled = true;
	}

	/**
	 * Forward again, first everything held back during the stall.
	 */
	public void resume() {
		synchronized (this.stallMonitor) {
			this.stalled = false;
			this.stallMonitor.notifyAll();
		}
	}

	/**
	 * Forward new connections to another target from now on; open connections stay with
	 * the old one until they are dropped ({@link #dropConnections()}).
	 * @param targetHost the host to forward to
	 * @param targetPort the port to forward to
	 */
	public void retarget(String targetHost, int targetPort) {
		this.target = new InetSocketAddress(targetHost, targetPort);
	}

	/**
	 * Reset every open connection, on both sides.
	 * @return how many connections were dropped
	 */
	public int dropConnections() {
		int count = 0;
		for (Link link : this.links) {
			link.close(true);
			count++;
		}
		this.dropped.addAndGet(count);
		return count;
	}

	/**
	 * Return how many connections are open.
	 * @return the number of connections
	 */
	public int connections() {
		return this.links.size();
	}

	/**
	 * Return how many connections were accepted so far.
	 * @return the number of accepted connections
	 */
	public int acceptedConnections() {
		return this.accepted.get();
	}

	/**
	 * Stop accepting and close every connection.
	 */
	@Override
	public void close() {
		this.closed = true;
		resume();
		try {
			this.server.close();
		}
		catch (IOException ex) {
			// Closing anyway.
		}
		this.links.forEach((link) -> link.close(false));
	}

	private void accept() {
		while (!this.closed) {
			Socket client;
			try {
				client = this.server.accept();
			}
			catch (IOException ex) {
				return;
			}
			this.accepted.incrementAndGet();
			Socket upstream = new Socket();
			try {
				upstream.connect(this.target, 2000);
				client.setTcpNoDelay(true);
				upstream.setTcpNoDelay(true);
			}
			catch (IOException ex) {
				closeQuietly(client);
				closeQuietly(upstream);
				continue;
			}
			Link link = new Link(client, upstream);
			this.links.add(link);
			link.start();
		}
	}

	private void awaitNotStalled() throws InterruptedException {
		if (!this.stalled) {
			return;
		}
		synchronized (this.stallMonitor) {
			while (this.stalled && !this.closed) {
				this.stallMonitor.wait(100);
			}
		}
	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// Nothing left to do.
		}
	}

	private record Chunk(byte[] bytes, long dueNanos) {

	}

	/**
	 * One proxied connection: the client's socket and the one to the target.
	 */
	private final class Link {

		private final Socket client;

		private final Socket upstream;

		private final AtomicInteger closedSides = new AtomicInteger();

		Link(Socket client, Socket upstream) {
			this.client = client;
			this.upstream = upstream;
		}

		void start() {
			direction(this.client, this.upstream, "up");
			direction(this.upstream, this.client, "down");
		}

		private void direction(Socket from, Socket to, String name) {
			BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
			String suffix = name + "-" + from.getPort() + "-" + to.getPort();
			Thread reader = new Thread(() -> read(from, queue), "tcp-proxy-read-" + suffix);
			Thread writer = new Thread(() -> write(to, queue), "tcp-proxy-write-" + suffix);
			reader.setDaemon(true);
			writer.setDaemon(true);
			reader.start();
			writer.start();
		}

		private void read(Socket from, BlockingQueue<Chunk> queue) {
			byte[] buffer = new byte[16384];
			try {
				InputStream input = from.getInputStream();
				int read;
				while ((read = input.read(buffer)) >= 0) {
					queue.add(new Chunk(Arrays.copyOf(buffer, read), System.nanoTime() + TcpProxy.this.delayNanos));
				}
			}
			catch (IOException ex) {
				// Closed or reset.
			}
			queue.add(new Chunk(new byte[0], 0));
		}

		private void write(Socket to, BlockingQueue<Chunk> queue) {
			try {
				OutputStream output = to.getOutputStream();
				while (true) {
					Chunk chunk = queue.take();
					if (chunk.bytes().length == 0) {
						break;
					}
					long wait = chunk.dueNanos() - System.nanoTime();
					if (wait > 0) {
						TimeUnit.NANOSECONDS.sleep(wait);
					}
					awaitNotStalled();
					output.write(chunk.bytes());
					output.flush();
				}
			}
			catch (IOException | InterruptedException ex) {
				// Closed or reset.
			}
			close(false);
		}

		void close(boolean reset) {
			if (this.closedSides.getAndIncrement() > 0 && !reset) {
				return;
			}
			TcpProxy.this.links.remove(this);
			for (Socket socket : new Socket[] { this.client, this.upstream }) {
				try {
					if (reset && !socket.isClosed()) {
						socket.setSoLinger(true, 0);
					}
				}
				catch (IOException ex) {
					// Closed already.
				}
				closeQuietly(socket);
			}
		}

	}

}
