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

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import org.jspecify.annotations.Nullable;

/**
 * The test-only certificates in PEM format on the class path under
 * {@code io/distlock/test/tls/}: a CA, a server certificate for {@code 127.0.0.1} and
 * {@code localhost}, and a client certificate, all signed by the CA and valid for 100
 * years. Their private keys are public: never use them outside tests.
 * <p>
 * The locations suit Spring Boot PEM SSL bundles, for example
 * {@code spring.ssl.bundle.pem.redis.truststore.certificate=classpath:} followed by
 * {@link #CA_CERTIFICATE}.
 */
public final class TestCertificates {

	/**
	 * Class path location of the CA certificate that signed the others.
	 */
	public static final String CA_CERTIFICATE = "io/distlock/test/tls/ca.crt";

	/**
	 * Class path location of the server certificate, for {@code IP:127.0.0.1} and
	 * {@code DNS:localhost}.
	 */
	public static final String SERVER_CERTIFICATE = "io/distlock/test/tls/server.crt";

	/**
	 * Class path location of the server's unencrypted PKCS#8 private key.
	 */
	public static final String SERVER_KEY = "io/distlock/test/tls/server.key";

	/**
	 * Class path location of the client certificate, for mutual TLS.
	 */
	public static final String CLIENT_CERTIFICATE = "io/distlock/test/tls/client.crt";

	/**
	 * Class path location of the client's unencrypted PKCS#8 private key.
	 */
	public static final String CLIENT_KEY = "io/distlock/test/tls/client.key";

	private static @Nullable WorkDirectory extracted;

	private TestCertificates() {
	}

	/**
	 * Return a file holding the CA certificate.
	 * @return the PEM file
	 */
	public static Path caCertificateFile() {
		return file(CA_CERTIFICATE);
	}

	/**
	 * Return a file holding the server certificate.
	 * @return the PEM file
	 */
	public static Path serverCertificateFile() {
		return file(SERVER_CERTIFICATE);
	}

	/**
	 * Return a file holding the server's private key.
	 * @return the PEM file
	 */
	public static Path serverKeyFile() {
		return file(SERVER_KEY);
	}

	/**
	 * Return a file holding the client certificate.
	 * @return the PEM file
	 */
	public static Path clientCertificateFile() {
		return file(CLIENT_CERTIFICATE);
	}

	/**
	 * Return a file holding the client's private key.
	 * @return the PEM file
	 */
	public static Path clientKeyFile() {
		return file(CLIENT_KEY);
	}

	/**
	 * Create an SSL context that trusts the test CA and checks that the server
	 * certificate names the host, optionally presenting the client certificate.
	 * @param withClientCertificate whether to present the client certificate when the
	 * server asks for one
	 * @return the SSL context
	 */
	public static SSLContext sslContext(boolean withClientCertificate) {
		try {
			KeyStore trusted = KeyStore.getInstance("PKCS12");
			trusted.load(null, null);
			trusted.setCertificateEntry("distlock-test-ca", certificate(CA_CERTIFICATE));
			TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			trust.init(trusted);
			KeyManagerFactory keys = null;
			if (withClientCertificate) {
				char[] password = new char[0];
				KeyStore client = KeyStore.getInstance("PKCS12");
				client.load(null, null);
				client.setKeyEntry("distlock-test-client", privateKey(CLIENT_KEY), password,
						new Certificate[] { certificate(CLIENT_CERTIFICATE) });
				keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
				keys.init(client, password);
			}
			SSLContext context = SSLContext.getInstance("TLS");
			context.init((keys != null) ? keys.getKeyManagers() : null, trust.getTrustManagers(), null);
			return context;
		}
		catch (GeneralSecurityException | IOException ex) {
			throw new IllegalStateException("Could not load the test certificates", ex);
		}
	}

	private static synchronized Path file(String location) {
		WorkDirectory directory = extracted;
		if (directory == null) {
			// Kept until the JVM exits, when ShutdownCleanup deletes it.
			directory = WorkDirectory.create();
			for (String each : new String[] { CA_CERTIFICATE, SERVER_CERTIFICATE, SERVER_KEY, CLIENT_CERTIFICATE,
					CLIENT_KEY }) {
				try {
					Files.write(directory.path().resolve(fileName(each)), read(each));
				}
				catch (IOException ex) {
					throw new UncheckedIOException("Could not extract " + each, ex);
				}
			}
			extracted = directory;
		}
		return directory.path().resolve(fileName(location));
	}

	private static String fileName(String location) {
		return location.substring(location.lastIndexOf('/') + 1);
	}

	private static byte[] read(String location) throws IOException {
		try (InputStream input = TestCertificates.class.getClassLoader().getResourceAsStream(location)) {
			if (input == null) {
				throw new IOException(location + " is not on the class path");
			}
			return input.readAllBytes();
		}
	}

	private static Certificate certificate(String location) throws IOException, GeneralSecurityException {
		try (InputStream input = TestCertificates.class.getClassLoader().getResourceAsStream(location)) {
			if (input == null) {
				throw new IOException(location + " is not on the class path");
			}
			return CertificateFactory.getInstance("X.509").generateCertificate(input);
		}
	}

	private static PrivateKey privateKey(String location) throws IOException, GeneralSecurityException {
		String pem = new String(read(location), StandardCharsets.US_ASCII);
		String base64 = pem.replace("-----BEGIN PRIVATE KEY-----", "")
			.replace("-----END PRIVATE KEY-----", "")
			.replaceAll("\\s", "");
		return KeyFactory.getInstance("RSA")
			.generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
	}

}
