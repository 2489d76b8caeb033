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

package io.distlock.test;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

import org.jspecify.annotations.Nullable;

/**
 * A minimal blocking RESP2 connection over a plain or TLS socket, for the harness and for
 * tests that need to talk to a server directly. Every connect and read is bounded by a
 * timeout, so a paused server makes a call fail instead of hang.
 */
public final class RespConnection implements AutoCloseable {

	/**
	 * The timeout used when none is given.
	 */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

	private final Socket socket;

	private final String address;

	private final OutputStream output;

	private final RespReader reader;

	private RespConnection(Socket socket, String address) throws IOException {
		this.socket = socket;
		this.address = address;
		this.output = new BufferedOutputStream(socket.getOutputStream());
		this.reader = new RespReader(new BufferedInputStream(socket.getInputStream()));
	}

	/**
	 * Open a connection, authenticating with {@code AUTH} when a password is given.
	 * @param host the host to connect to
	 * @param port the port to connect to
	 * @param password the password, or {@code null} for none
	 * @param timeout the limit for connecting and for each read
	 * @return the open connection
	 * @throws UncheckedIOException if the server cannot be reached or does not answer in
	 * time
	 * @throws RedisCommandException if the server rejects the password
	 */
	public static RespConnection open(String host, int port, @Nullable String password, Duration timeout) {
		return open(host, port, password, timeout, null);
	}

	/**
	 * Open a connection, over TLS when an SSL context is given (such as
	 * {@link TestCertificates#sslContext(boolean)}), authenticating with {@code AUTH}
	 * when a password is given. Over TLS the server certificate must name the host.
	 * @param host the host to connect to
	 * @param port the port to connect to
	 * @param password the password, or {@code null} for none
	 * @param timeout the limit for connecting, for the TLS handshake and for each read
	 * @param sslContext the SSL context for TLS, or {@code null} for plain text
	 * @return the open connection
	 * @throws UncheckedIOException if the server cannot be reached, the TLS handshake
	 * fails, or the server does not answer in time
	 * @throws RedisCommandException if the server rejects the password
	 */
	public static RespConnection open(String host, int port, @Nullable String password, Duration timeout,
			@Nullable SSLContext sslContext) {
		int millis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
		String address = host + ":" + port;
		Socket socket = new Socket();
		try {
			socket.connect(new InetSocketAddress(host, port), millis);
			socket.setSoTimeout(millis);
			socket.setTcpNoDelay(true);
			if (sslContext != null) {
				socket = handshake(sslContext, socket, host, port);
			}
			RespConnection connection = new RespConnection(socket, address);
			if (password != null) {
				connection.command("AUTH", password);
			}
			return connection;
		}
		catch (IOException ex) {
			closeQuietly(socket);
			throw new UncheckedIOException("Could not connect to " + address, ex);
		}
		catch (RuntimeException ex) {
			closeQuietly(socket);
			throw ex;
		}
	}

	private static Socket handshake(SSLContext sslContext, Socket plain, String host, int port) throws IOException {
		SSLSocket socket = (SSLSocket) sslContext.getSocketFactory().createSocket(plain, host, port, true);
		try {
			SSLParameters parameters = socket.getSSLParameters();
			parameters.setEndpointIdentificationAlgorithm("HTTPS");
			socket.setSSLParameters(parameters);
			// Bounded by the read timeout of the underlying socket.
			socket.startHandshake();
			return socket;
		}
		catch (IOException | RuntimeException ex) {
			closeQuietly(socket);
			throw ex;
		}
	}

	/**
	 * Send one command and return its reply.
	 * @param args the command and its arguments
	 * @return the reply: a {@link String}, a {@link Long}, a {@link java.util.List} or
	 * {@code null}
	 * @throws RedisCommandException if the reply is an error
	 * @throws UncheckedIOException if the connection fails or the reply does not come in
	 * time
	 */
	public @Nullable Object command(String... args) {
		send(args);
		return read();
	}

	/**
	 * Send one command without waiting for its reply; {@link #read()} reads it later.
	 * @param args the command and its arguments
	 */
	public void send(String... args) {
		ByteArrayOutputStream encoded = new ByteArrayOutputStream();
		writeLine(encoded, "*" + args.length);
		for (String arg : args) {
			byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
			writeLine(encoded, "$" + bytes.length);
			encoded.writeBytes(bytes);
			writeLine(encoded, "");
		}
		try {
			encoded.writeTo(this.output);
			this.output.flush();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not send " + args[0] + " to " + this.address, ex);
		}
	}

	/**
	 * Read the reply to a command sent earlier.
	 * @return the reply, typed as for {@link #command(String...)}
	 */
	public @Nullable Object read() {
		try {
			return this.reader.read();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read a reply from " + this.address, ex);
		}
	}

	/**
	 * Close the socket.
	 */
	@Override
	public void close() {
		closeQuietly(this.socket);
	}

	private static void writeLine(ByteArrayOutputStream encoded, String line) {
		encoded.writeBytes((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// Nothing left to do with a socket that will not close.
		}
	}

}
