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

import java.util.function.Supplier;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import io.distlock.lease.LeaseRenewer;
import io.distlock.redlock.RedlockNodes;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The health of distributed locking, shown as {@code distlock}: {@code DOWN} when the
 * lock backend cannot be reached, {@code UP} otherwise.
 *
 * <p>
 * Details:
 * <ul>
 * <li>{@code backend}: {@code redis} (locks on {@code spring.data.redis}) or
 * {@code redlock};</li>
 * <li>{@code nodes}, for Redlock: {@code "n/N reachable"}; {@code DOWN} below a majority,
 * as no lock can be taken then;</li>
 * <li>{@code releaseSubscription}: {@code connected} or {@code not connected}. Without it
 * waiting callers notice a release by polling with backoff instead of being woken, later
 * but still correctly, so it alone does not make the health {@code DOWN};</li>
 * <li>{@code renewedLeases}: how many held locks are being renewed;</li>
 * <li>{@code renewalBacklog}: how many of those are behind on renewal (see
 * {@link LeaseRenewer#backlog()}); they are lost if the backend does not answer before
 * their ttl runs out;</li>
 * <li>{@code error}, when the backend failed: the exception, with any credentials in a
 * URL masked.</li>
 * </ul>
 * Each check is bounded by the backend's command timeout (Redlock: the node timeout), so
 * an unreachable backend is reported {@code DOWN} within it rather than hanging.
 */
final class DistLockHealthIndicator implements HealthIndicator {

	private static final Pattern CREDENTIALS = Pattern.compile("(?i)(rediss?://)[^@/\\s]*@");

	private final Backend backend;

	private final Supplier<@Nullable Boolean> releaseSubscription;

	private final @Nullable LeaseRenewer leaseRenewer;

	/**
	 * Create an indicator.
	 * @param backend checks the lock backend
	 * @param releaseSubscription whether the release subscription is up, or {@code null}
	 * when there is no release notifier
	 * @param leaseRenewer the renewer of held locks, if any
	 */
	DistLockHealthIndicator(Backend backend, Supplier<@Nullable Boolean> releaseSubscription,
			@Nullable LeaseRenewer leaseRenewer) {
		this.backend = backend;
		this.releaseSubscription = releaseSubscription;
		this.leaseRenewer = leaseRenewer;
	}

	@Override
	public Health health() {
		Health.Builder builder = new Health.Builder();
		try {
			this.backend.check(builder);
		}
		catch (RuntimeException ex) {
			builder.down().withDetail("error", describe(ex));
		}
		Boolean subscribed = this.releaseSubscription.get();
		if (subscribed != null) {
			builder.withDetail("releaseSubscription", subscribed ? "connected" : "not connected");
		}
		if (this.leaseRenewer != null) {
			builder.withDetail("renewedLeases", this.leaseRenewer.size());
			builder.withDetail("renewalBacklog", this.leaseRenewer.backlog());
		}
		return builder.build();
	}

	static String describe(Throwable ex) {
		String message = ex.getClass().getName() + ": " + ex.getMessage();
		return CREDENTIALS.matcher(message).replaceAll("$1***@");
	}

	/**
	 * Checks the lock backend: sets the status and adds the backend's details.
	 */
	@FunctionalInterface
	interface Backend {

		void check(Health.Builder builder);

		/**
		 * A single Redis, up while it answers a {@code PING} within the command timeout.
		 */
		static Backend redis(RedisConnectionFactory connectionFactory) {
			return (builder) -> {
				builder.withDetail("backend", "redis");
				try (RedisConnection connection = connectionFactory.getConnection()) {
					connection.ping();
				}
				builder.up();
			};
		}

		/**
		 * Redlock's nodes, up while a majority answer a {@code PING} within the node
		 * timeout.
		 */
		static Backend redlock(RedlockNodes nodes) {
			return (builder) -> {
				int total = nodes.connectionFactories().size();
				int reachable = nodes.countReachable();
				builder.withDetail("backend", "redlock").withDetail("nodes", reachable + "/" + total + " reachable");
				if (reachable >= total / 2 + 1) {
					builder.up();
				}
				else {
					builder.down();
				}
			};
		}

	}

}
