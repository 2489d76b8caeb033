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

import io.lettuce.core.AbstractRedisClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

/**
 * Tests for {@link RedisConnections}.
 */
class RedisConnectionsTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	@Test
	void destroyStopsTheFactoryAndShutsItsClientDown() {
		LettuceConnectionFactory factory = RedisConnections.connectionFactory(redis.endpoint());
		factory.getConnection().close();
		AbstractRedisClient client = factory.getNativeClient();
		RedisConnections.destroy(factory);
		assertThat(factory.isRunning()).isFalse();
		assertThat(client.getResources().eventExecutorGroup().isShuttingDown()).isTrue();
	}

	@Test
	void destroyShutsTheClientDownWhenLettuceRacesClosingANodeConnectionThatIsStillOpening() {
		LettuceConnectionFactory factory = new RacingOnCloseConnectionFactory(redis.endpoint());
		factory.afterPropertiesSet();
		factory.start();
		AbstractRedisClient client = factory.getNativeClient();
		RedisConnections.destroy(factory);
		assertThat(client.getResources().eventExecutorGroup().isShuttingDown()).isTrue();
	}

	@Test
	void destroyRethrowsAnyOtherNullPointerException() {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(redis.endpoint().host(), redis.endpoint().port())) {

			@Override
			public void destroy() {
				throw new NullPointerException("a bug of ours");
			}

		};
		factory.afterPropertiesSet();
		factory.start();
		AbstractRedisClient client = factory.getNativeClient();
		assertThatNullPointerException().isThrownBy(() -> RedisConnections.destroy(factory))
			.withMessage("a bug of ours");
		client.shutdown();
	}

	/**
	 * Fails in {@code destroy()} the way Lettuce 6 and 7 can when a cluster node
	 * connection completes while the client closes: {@code AsyncConnectionProvider.Sync}
	 * marks the connection complete a moment before it stores it, and a close in that
	 * moment reads {@code null}. The window is nanoseconds wide, too narrow to hit on
	 * purpose, so this factory throws what Lettuce throws from where Lettuce throws it.
	 */
	static final class RacingOnCloseConnectionFactory extends LettuceConnectionFactory {

		RacingOnCloseConnectionFactory(RedisEndpoint endpoint) {
			super(new RedisStandaloneConfiguration(endpoint.host(), endpoint.port()));
		}

		@Override
		public void destroy() {
			NullPointerException race = new NullPointerException(
					"Cannot invoke \"io.lettuce.core.internal.AsyncCloseable.closeAsync()\" because \"closeable\" is null");
			race.setStackTrace(new StackTraceElement[] {
					new StackTraceElement("io.lettuce.core.internal.AsyncConnectionProvider", "lambda$close$2",
							"AsyncConnectionProvider.java", 147),
					new StackTraceElement("io.lettuce.core.internal.AsyncConnectionProvider$Sync", "doWithConnection",
							"AsyncConnectionProvider.java", 272),
					new StackTraceElement(LettuceConnectionFactory.class.getName(), "destroy",
							"LettuceConnectionFactory.java", 420) });
			throw race;
		}

	}

}
