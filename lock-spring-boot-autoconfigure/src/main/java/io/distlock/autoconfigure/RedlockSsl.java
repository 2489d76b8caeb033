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

package io.distlock.autoconfigure;

import io.lettuce.core.SslOptions;

import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

/**
 * Turns the SSL bundle named by {@code distlock.redlock.ssl-bundle} into Lettuce's TLS
 * options for the Redlock nodes, as Spring Boot does for {@code spring.data.redis}.
 */
final class RedlockSsl {

	private RedlockSsl() {
	}

	static SslOptions options(SslBundles bundles, String name) {
		SslBundle bundle;
		try {
			bundle = bundles.getBundle(name);
		}
		catch (NoSuchSslBundleException ex) {
			// Our message says all; Boot's would become the root cause users see first.
			throw new InvalidDistLockPropertyException("distlock.redlock.ssl-bundle", name,
					"distlock.redlock.ssl-bundle names SSL bundle '" + name + "', which is not configured",
					"Define SSL bundle '" + name + "' under spring.ssl.bundle.pem." + name
							+ " or spring.ssl.bundle.jks." + name
							+ ", or name a configured bundle in distlock.redlock.ssl-bundle");
		}
		SslOptions.Builder options = SslOptions.builder()
			.keyManager(bundle.getManagers().getKeyManagerFactory())
			.trustManager(bundle.getManagers().getTrustManagerFactory());
		if (bundle.getOptions().getCiphers() != null) {
			options.cipherSuites(bundle.getOptions().getCiphers());
		}
		if (bundle.getOptions().getEnabledProtocols() != null) {
			options.protocols(bundle.getOptions().getEnabledProtocols());
		}
		return options.build();
	}

}
