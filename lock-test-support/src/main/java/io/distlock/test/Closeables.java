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

import java.util.List;

/**
 * Closes groups of harness servers so that one failing to close does not leave the others
 * running.
 */
final class Closeables {

	private Closeables() {
	}

	/**
	 * Close every endpoint, also when closing one of them fails; the first failure is
	 * thrown afterwards with the others suppressed.
	 */
	static void closeAll(List<? extends RedisEndpoint> endpoints) {
		RuntimeException failure = null;
		for (RedisEndpoint endpoint : endpoints) {
			try {
				endpoint.close();
			}
			catch (RuntimeException ex) {
				if (failure == null) {
					failure = ex;
				}
				else {
					failure.addSuppressed(ex);
				}
			}
		}
		if (failure != null) {
			throw failure;
		}
	}

	/**
	 * Close every endpoint, adding each failure to the given one as suppressed.
	 */
	static void closeAll(List<? extends RedisEndpoint> endpoints, Throwable failure) {
		for (RedisEndpoint endpoint : endpoints) {
			try {
				endpoint.close();
			}
			catch (RuntimeException ex) {
				failure.addSuppressed(ex);
			}
		}
	}

	/**
	 * Close the endpoints started before a failure, which is the one the caller throws: a
	 * failure to close them is added to it as suppressed.
	 */
	static void closeAfter(RuntimeException failure, List<? extends RedisEndpoint> started) {
		try {
			closeAll(started);
		}
		catch (RuntimeException closeFailure) {
			failure.addSuppressed(closeFailure);
		}
	}

}
