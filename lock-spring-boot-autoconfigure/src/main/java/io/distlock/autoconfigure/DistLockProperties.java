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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.distlock.LockRequest;

import io.distlock.redis.RedisLockClient;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;
import org.springframework.core.Ordered;
import org.springframework.util.Assert;

/**
 * Configuration properties for distlock.
 */
@ConfigurationProperties("distlock")
public class DistLockProperties {

	/**
	 * Default order of the lock advice: just outside @Transactional, whose advice has the
	 * lowest precedence.
	 */
	public static final int DEFAULT_ORDER = Ordered.LOWEST_PRECEDENCE - 100;

	/**
	 * Whether to enable distributed locks. When disabled, no lock beans are created and
	 * {@code @DistributedLocked} has no effect.
	 */
	private boolean enabled = true;

	/**
	 * Prefix of every lock key in Redis, for @DistributedLocked and LockTemplate alike.
	 */
	private String keyPrefix = "lock:";

	/**
	 * Name of this instance of the application, shown with what it holds and waits for.
	 * By default spring.application.name, the host name and the process id
	 * ("orders@host:4242"). At most 100 characters, no control characters.
	 */
	private @Nullable String instanceName;

	/**
	 * Whether each lock keeps the description of its holder (instance name, thread, lock
	 * name, time), shown by GET /actuator/locks/{key} on any instance and named by a busy
	 * LockAcquisitionException. Costs no Redis command, only the description's bytes on
	 * each call that carries the owner token.
	 */
	private boolean describeHolders = true;

	/**
	 * Lease time of a lock whose @DistributedLocked ttl is empty: how long the lock
	 * outlives a holder that crashed. At least 500ms, the shortest lease that renewal can
	 * keep, and at most 365 days.
	 */
	private Duration defaultTtl = Duration.ofSeconds(30);

	/**
	 * Wait time of a lock whose @DistributedLocked waitTime is empty: how long to wait
	 * for a busy lock. Zero means try once.
	 */
	private Duration defaultWaitTime = Duration.ZERO;

	/**
	 * Order of the lock advice among other advice on the same method. The default takes
	 * the lock outside @Transactional (acquired before the transaction begins, released
	 * after it ends); a lower value moves the lock further out.
	 */
	private int order = DEFAULT_ORDER;

	/**
	 * Longest time a lock's lease is renewed. A lock held longer, such as a handle that
	 * was never closed, stops being renewed (with a warning), is reported lost and
	 * expires after its ttl.
	 */
	private Duration maxHold = Duration.ofHours(1);

	/**
	 * How long Redis keeps a key's fencing counter after the key's last acquisition; at
	 * least 1 minute, which the fencing guarantee needs. Past it, tokens still increase,
	 * as each token is at least the Redis clock in microseconds, as long as they did not
	 * run ahead of that clock by more than this; a clock found behind the last token's (a
	 * clock stepped back, a failover) is absorbed up to this. Longer keeps one small key
	 * per lock key for longer.
	 */
	private Duration fencingCounterRetention = Duration.ofMinutes(10);

	private final Redlock redlock = new Redlock();

	private final Replication replication = new Replication();

	private final Observation observation = new Observation();

	private final Actuator actuator = new Actuator();

	private final Leader leader = new Leader();

	private final Aop aop = new Aop();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable String getInstanceName() {
		return this.instanceName;
	}

	public void setInstanceName(@Nullable String instanceName) {
		this.instanceName = instanceName;
	}

	public boolean isDescribeHolders() {
		return this.describeHolders;
	}

	public void setDescribeHolders(boolean describeHolders) {
		this.describeHolders = describeHolders;
	}

	public String getKeyPrefix() {
		return this.keyPrefix;
	}

	public void setKeyPrefix(String keyPrefix) {
		Assert.notNull(keyPrefix, "Key prefix must not be null");
		this.keyPrefix = keyPrefix;
	}

	public Duration getDefaultTtl() {
		return this.defaultTtl;
	}

	public void setDefaultTtl(Duration defaultTtl) {
		Assert.isTrue(defaultTtl.compareTo(LockRequest.MAX_TTL) <= 0, () -> "Default ttl must be at most "
				+ LockRequest.MAX_TTL.toDays() + " days, the longest lease a lock can have, but was " + defaultTtl);
		Assert.isTrue(defaultTtl.compareTo(Duration.ofMillis(1)) >= 0,
				() -> "Default ttl must be at least 1ms but was " + defaultTtl);
		// The default is the lease of every @DistributedLocked method without a ttl,
		// renewed unless autoRenew = false, and of the Spring Integration registry's
		// locks, always renewed.
		Assert.isTrue(defaultTtl.compareTo(LockRequest.MIN_RENEWED_TTL) >= 0,
				() -> renewedTtlTooShort("distlock.default-ttl", defaultTtl));
		this.defaultTtl = defaultTtl;
	}

	public Duration getDefaultWaitTime() {
		return this.defaultWaitTime;
	}

	public void setDefaultWaitTime(Duration defaultWaitTime) {
		Assert.isTrue(!defaultWaitTime.isNegative(),
				() -> "Default wait time must not be negative but was " + defaultWaitTime);
		this.defaultWaitTime = defaultWaitTime;
	}

	public int getOrder() {
		return this.order;
	}

	public void setOrder(int order) {
		this.order = order;
	}

	public Duration getMaxHold() {
		return this.maxHold;
	}

	public void setMaxHold(Duration maxHold) {
		Assert.isTrue(!maxHold.isNegative() && !maxHold.isZero(), () -> "Max hold must be positive but was " + maxHold);
		this.maxHold = maxHold;
	}

	public Duration getFencingCounterRetention() {
		return this.fencingCounterRetention;
	}

	public void setFencingCounterRetention(Duration fencingCounterRetention) {
		Assert.isTrue(fencingCounterRetention.compareTo(RedisLockClient.MIN_FENCING_COUNTER_RETENTION) >= 0,
				() -> "distlock.fencing-counter-retention must be at least "
						+ RedisLockClient.MIN_FENCING_COUNTER_RETENTION.toSeconds() + "s, but was "
						+ fencingCounterRetention.toMillis()
						+ "ms: a shorter one leaves fencing tokens to the clock alone (docs/safety.md)");
		this.fencingCounterRetention = fencingCounterRetention;
	}

	public Redlock getRedlock() {
		return this.redlock;
	}

	public Replication getReplication() {
		return this.replication;
	}

	public Observation getObservation() {
		return this.observation;
	}

	public Actuator getActuator() {
		return this.actuator;
	}

	public Aop getAop() {
		return this.aop;
	}

	public Leader getLeader() {
		return this.leader;
	}

	private static String renewedTtlTooShort(String property, Duration ttl) {
		long millis = ttl.toMillis();
		return property + " is read as " + millis + "ms (a number without a unit is milliseconds); write " + millis
				+ "s if " + millis + " seconds were meant. That is too short for a lease that is renewed: it must be "
				+ "at least " + LockRequest.MIN_RENEWED_TTL.toMillis() + "ms, since the lease is renewed every third "
				+ "of its ttl and a renewal later than the other two thirds loses the lock while its holder still runs";
	}

	/**
	 * Replica acknowledgement: how many replicas of the primary must have a lock before
	 * it counts as held.
	 */
	public static class Replication {

		/**
		 * Number of replicas that must acknowledge (WAIT) an acquisition or renewal
		 * before it counts. An acquisition they do not acknowledge in time is released
		 * and tried again within the wait time. Narrows, does not close, the window in
		 * which a failover loses a lock. 0 waits for none.
		 */
		private int minReplicas = 0;

		/**
		 * How long to wait for the replicas to acknowledge.
		 */
		private Duration timeout = Duration.ofMillis(100);

		public int getMinReplicas() {
			return this.minReplicas;
		}

		public void setMinReplicas(int minReplicas) {
			Assert.isTrue(minReplicas >= 0, () -> "Minimum replicas must not be negative but was " + minReplicas);
			this.minReplicas = minReplicas;
		}

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			Assert.isTrue(timeout.toMillis() >= 1, () -> "Replication timeout must be at least 1ms but was " + timeout);
			this.timeout = timeout;
		}

	}

	/**
	 * Redlock properties: one lock over several independent Redis masters.
	 */
	public static class Redlock {

		/**
		 * URLs of the independent Redis masters to lock on with Redlock, such as
		 * redis://127.0.0.1:7001 or rediss://:secret@host:6379 (TLS). At least 3; 5
		 * tolerate the loss of 2. When set, every lock goes through Redlock, while
		 * spring.data.redis keeps serving the application's other Redis uses.
		 */
		private List<String> nodes = new ArrayList<>();

		/**
		 * Fraction of the ttl allowed for clock drift between the nodes: a lock counts as
		 * held only while ttl - elapsed - (ttl * factor + 2ms) is positive.
		 */
		private double clockDriftFactor = 0.01;

		/**
		 * Command timeout of each node, much shorter than any lock's ttl, so that a slow
		 * or dead node cannot stall an acquisition.
		 */
		private Duration nodeTimeout = Duration.ofMillis(200);

		/**
		 * Name of the SSL bundle (spring.ssl.bundle.*) with the trust and key material
		 * for the nodes; every node URL must then be rediss://. Without it, rediss://
		 * nodes are verified against the JVM's default trust store.
		 */
		private @Nullable String sslBundle;

		public List<String> getNodes() {
			return this.nodes;
		}

		public void setNodes(List<String> nodes) {
			this.nodes = nodes;
		}

		public double getClockDriftFactor() {
			return this.clockDriftFactor;
		}

		public void setClockDriftFactor(double clockDriftFactor) {
			Assert.isTrue(clockDriftFactor >= 0 && clockDriftFactor < 1,
					() -> "Clock drift factor must be at least 0 and less than 1 but was " + clockDriftFactor);
			this.clockDriftFactor = clockDriftFactor;
		}

		public Duration getNodeTimeout() {
			return this.nodeTimeout;
		}

		public void setNodeTimeout(Duration nodeTimeout) {
			Assert.isTrue(nodeTimeout.toMillis() >= 1,
					() -> "Node timeout must be at least 1ms but was " + nodeTimeout);
			this.nodeTimeout = nodeTimeout;
		}

		public @Nullable String getSslBundle() {
			return this.sslBundle;
		}

		public void setSslBundle(@Nullable String sslBundle) {
			this.sslBundle = sslBundle;
		}

	}

	/**
	 * Observations (traces and metrics) of locks.
	 */
	public static class Observation {

		/**
		 * Whether spans carry the lock key. Keys are data (an order id, a user name), so
		 * they stay off spans unless this is set; never on metrics.
		 */
		private boolean includeKey;

		public boolean isIncludeKey() {
			return this.includeKey;
		}

		public void setIncludeKey(boolean includeKey) {
			this.includeKey = includeKey;
		}

	}

	/**
	 * The locks Actuator endpoint.
	 */
	public static class Actuator {

		/**
		 * Whether the locks endpoint may force-release a lock held by anyone (DELETE
		 * /actuator/locks/{key}). Off by default: a forced release breaks mutual
		 * exclusion for the work still running under the lock. Refused, whatever this
		 * says, when the key prefix is empty. Applied as
		 * management.endpoint.locks.access=unrestricted when true (read-only when false)
		 * unless management.endpoint.locks.access is set, which then decides.
		 */
		private boolean forceReleaseEnabled;

		/**
		 * Whether the locks endpoint may force-release a lock held by anyone.
		 * @return whether force release is enabled
		 * @deprecated since 0.2.0 in favor of Spring Boot's endpoint access control,
		 * {@code management.endpoint.locks.access=unrestricted}
		 */
		@Deprecated(since = "0.2.0")
		@DeprecatedConfigurationProperty(replacement = "management.endpoint.locks.access", since = "0.2.0",
				reason = "Force release is a write operation of the locks endpoint, allowed by Spring Boot's "
						+ "endpoint access control: management.endpoint.locks.access=unrestricted.")
		public boolean isForceReleaseEnabled() {
			return this.forceReleaseEnabled;
		}

		/**
		 * Set whether the locks endpoint may force-release a lock held by anyone.
		 * @param forceReleaseEnabled whether force release is enabled
		 * @deprecated since 0.2.0 in favor of
		 * {@code management.endpoint.locks.access=unrestricted}
		 */
		@Deprecated(since = "0.2.0")
		public void setForceReleaseEnabled(boolean forceReleaseEnabled) {
			this.forceReleaseEnabled = forceReleaseEnabled;
		}

	}

	/**
	 * Leader election among the instances of the application.
	 */
	public static class Leader {

		/**
		 * Name of the leadership, which is also its lock key: when set, one instance of
		 * the application holds it for as long as it lives, and publishes
		 * LeadershipGrantedEvent and LeadershipRevokedEvent.
		 */
		private @Nullable String name;

		/**
		 * Lease time of the leadership lock: how long after a crash of the leader another
		 * instance takes over. Renewed every third of it, so at least 500ms.
		 */
		private Duration ttl = Duration.ofSeconds(10);

		public @Nullable String getName() {
			return this.name;
		}

		public void setName(@Nullable String name) {
			this.name = name;
		}

		public Duration getTtl() {
			return this.ttl;
		}

		public void setTtl(Duration ttl) {
			Assert.isTrue(ttl.compareTo(LockRequest.MIN_RENEWED_TTL) >= 0,
					() -> renewedTtlTooShort("distlock.leader.ttl", ttl));
			this.ttl = ttl;
		}

	}

	/**
	 * How @DistributedLocked methods are intercepted.
	 */
	public static class Aop {

		/**
		 * How to intercept @DistributedLocked methods: with a Spring AOP proxy, which
		 * sees only calls from other beans, or with DistributedLockedAspect from
		 * io.distlock:lock-aspectj, woven into the classes at compile or load time, which
		 * sees every call and locks private and final methods too.
		 */
		private Mode mode = Mode.PROXY;

		/**
		 * Whether to warn at startup, in proxy mode, about each call from inside a class
		 * to its own @DistributedLocked method, which bypasses the proxy and runs
		 * unlocked.
		 */
		private boolean selfInvocationCheck = true;

		public Mode getMode() {
			return this.mode;
		}

		public void setMode(Mode mode) {
			this.mode = mode;
		}

		public boolean isSelfInvocationCheck() {
			return this.selfInvocationCheck;
		}

		public void setSelfInvocationCheck(boolean selfInvocationCheck) {
			this.selfInvocationCheck = selfInvocationCheck;
		}

		/**
		 * How @DistributedLocked methods are intercepted.
		 */
		public enum Mode {

			/**
			 * A Spring AOP proxy around each bean with locked methods.
			 */
			PROXY,

			/**
			 * DistributedLockedAspect, woven into the classes by AspectJ.
			 */
			ASPECTJ

		}

	}

}
