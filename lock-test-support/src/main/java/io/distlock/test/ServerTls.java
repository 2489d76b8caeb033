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

import java.util.Locale;

import javax.net.ssl.SSLContext;

import org.jspecify.annotations.Nullable;

/**
 * What TLS servers share: whether the {@code redis-server} binary supports TLS at all,
 * found out once, and the client SSL context that the harness connects with.
 */
final class ServerTls {

	private static @Nullable Boolean supported;

	private static @Nullable SSLContext clientContext;

	private ServerTls() {
	}

	/**
	 * Return whether a TLS server starts, trying once per JVM.
	 */
	static synchronized boolean isSupported() {
		Boolean result = supported;
		if (result == null) {
			try (RedisServer server = RedisServer.startTls()) {
				result = true;
			}
			catch (RedisStartupException ex) {
				// "Bad directive" for --tls-port in a build without TLS.
				String message = ex.getMessage();
				if (message == null || !message.toLowerCase(Locale.ROOT).contains("tls")) {
					throw ex;
				}
				result = false;
			}
			supported = result;
		}
		return result;
	}

	/**
	 * Return the SSL context that presents the client certificate, created once.
	 */
	static synchronized SSLContext clientContext() {
		SSLContext context = clientContext;
		if (context == null) {
			context = TestCertificates.sslContext(true);
			clientContext = context;
		}
		return context;
	}

}
