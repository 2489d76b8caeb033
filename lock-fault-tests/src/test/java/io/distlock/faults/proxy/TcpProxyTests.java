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
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link TcpProxy} in front of an echo server on loopback.
 */
class TcpProxyTests {

	private ServerSocket echo;

	private TcpProxy proxy;

	@BeforeEach
	void start() throws IOException {
		this.echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::echo, "echo");
		acceptor.setDaemon(true);
		acceptor.start();
		this.proxy = TcpProxy.start("127.0.0.1", this.echo.getLocalPort());
	}

	@AfterEach
	void stop() throws IOException {
		this.proxy.close();
		this.echo.close();
	}

	@Test
	void forwardsBothWays() throws IOException {
		try (Socket socket = connect()) {
			assertThat(roundTrip(socket, "hello")).isEqualTo("hello");
		}
		assertThat(this.proxy.acceptedConnections()).isOne();
	}

	@Test
	void delayIsAddedInEachDirection() throws IOException {
		try (Socket socket = connect()) {
			roundTrip(socket, "warm");
			this.proxy.delay(Duration.ofMillis(150));
			long start = System.nanoTime();
			assertThat(roundTrip(socket, "slow")).isEqualTo("slow");
			assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isBetween(290L, 2000L);
			this.proxy.delay(Duration.ZERO);
		}
	}

	@Test
	void stallHoldsEverythingBackUntilResumed() throws IOException {
		try (Socket socket = connect()) {
			roundTrip(socket, "warm");
			this.proxy.stall();
			socket.setSoTimeout(300);
			socket.getOutputStream().write("late".getBytes());
			assertThatExceptionOfType(SocketTimeoutException.class).isThrownBy(() -> socket.getInputStream().read());
			this.proxy.resume();
			socket.setSoTimeout(2000);
			assertThat(new String(socket.getInputStream().readNBytes(4))).isEqualTo("late");
		}
	}

	@Test
	void droppedConnectionsAreReset() throws IOException {
		try (Socket socket = connect()) {
			roundTrip(socket, "warm");
			assertThat(this.proxy.dropConnections()).isOne();
			assertThatExceptionOfType(IOException.class).isThrownBy(() -> {
				socket.getOutputStream().write("gone".getBytes());
				if (socket.getInputStream().read() < 0) {
					throw new IOException("closed");
				}
			});
			assertThat(this.proxy.connections()).isZero();
		}
		try (Socket socket = connect()) {
			assertThat(roundTrip(socket, "again")).isEqualTo("again");
		}
	}

	private Socket connect() throws IOException {
		Socket socket = new Socket("127.0.0.1", this.proxy.port());
		socket.setSoTimeout(5000);
		return socket;
	}

	private static String roundTrip(Socket socket, String text) throws IOException {
		OutputStream output = socket.getOutputStream();
		output.write(text.getBytes());
		output.flush();
		return new String(socket.getInputStream().readNBytes(text.length()));
	}

	private void echo() {
		while (true) {
			Socket socket;
			try {
				socket = this.echo.accept();
			}
			catch (IOException ex) {
				return;
			}
			Thread thread = new Thread(() -> {
				try (socket;
						InputStream input = socket.getInputStream();
						OutputStream output = socket.getOutputStream()) {
					input.transferTo(output);
				}
				catch (IOException ex) {
					// Closed.
				}
			}, "echo-connection");
			thread.setDaemon(true);
			thread.start();
		}
	}

}
