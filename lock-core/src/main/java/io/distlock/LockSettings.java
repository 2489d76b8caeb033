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

package io.distlock;

import java.util.ArrayList;
import java.util.List;

import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import io.distlock.observation.LockObservationConvention;

import org.springframework.util.Assert;

/**
 * The settings of a lock engine, which every front door built on it shares
 * ({@code LockTemplate}, {@code ReactiveLockTemplate} and {@code LeaderElection}): the
 * key prefix, the instance name, whether holders are described, the listeners and the
 * observation setup.
 *
 * <p>
 * An immutable value: build it with {@link #builder()}, whose methods validate their
 * argument, here and nowhere else.
 *
 * @see io.distlock.engine.LockEngine
 */
public final class LockSettings {

	/**
	 * The default key prefix, so that lock keys stand apart from the application's data.
	 */
	public static final String DEFAULT_KEY_PREFIX = "lock:";

	/**
	 * The longest instance name, in characters.
	 */
	public static final int MAX_INSTANCE_NAME_LENGTH = 100;

	private static final LockSettings DEFAULTS = builder().build();

	private final String keyPrefix;

	private final String instanceName;

	private final boolean describeHolders;

	private final List<LockListener> lockListeners;

	private final ObservationRegistry observationRegistry;

	private final @Nullable LockObservationConvention observationConvention;

	private LockSettings(Builder builder) {
		this.keyPrefix = builder.keyPrefix;
		this.instanceName = builder.instanceName;
		this.describeHolders = builder.describeHolders;
		this.lockListeners = builder.lockListeners;
		this.observationRegistry = builder.observationRegistry;
		this.observationConvention = builder.observationConvention;
	}

	/**
	 * Return the default settings: key prefix {@value #DEFAULT_KEY_PREFIX}, the
	 * {@linkplain #defaultInstanceName() default instance name}, holders described, no
	 * listeners and no observations.
	 * @return the default settings
	 */
	public static LockSettings defaults() {
		return DEFAULTS;
	}

	/**
	 * Return a builder that starts from the defaults.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Return a builder that starts from these settings, to derive others from them.
	 * @return a new builder
	 */
	public Builder toBuilder() {
		Builder builder = new Builder();
		builder.keyPrefix = this.keyPrefix;
		builder.instanceName = this.instanceName;
		builder.describeHolders = this.describeHolders;
		builder.lockListeners = this.lockListeners;
		builder.observationRegistry = this.observationRegistry;
		builder.observationConvention = this.observationConvention;
		return builder;
	}

	/**
	 * Return the prefix put before every key in the store.
	 * @return the key prefix
	 */
	public String getKeyPrefix() {
		return this.keyPrefix;
	}

	/**
	 * Return the name of this instance of the application.
	 * @return the instance name
	 */
	public String getInstanceName() {
		return this.instanceName;
	}

	/**
	 * Return whether each lock keeps the description of its holder.
	 * @return whether holders are described
	 * @see Builder#describeHolders(boolean)
	 */
	public boolean isDescribeHolders() {
		return this.describeHolders;
	}

	/**
	 * Return the listeners told about lock events, in the order they are told.
	 * @return the listeners
	 */
	public List<LockListener> getLockListeners() {
		return this.lockListeners;
	}

	/**
	 * Return the registry that observes lock acquisitions and holds.
	 * @return the observation registry, {@link ObservationRegistry#NOOP} by default
	 */
	public ObservationRegistry getObservationRegistry() {
		return this.observationRegistry;
	}

	/**
	 * Return the convention that names the observations and their tags.
	 * @return the convention, or {@code null} for the default one
	 */
	public @Nullable LockObservationConvention getObservationConvention() {
		return this.observationConvention;
	}

	/**
	 * Return the default instance name: the host name and the process id, as in
	 * {@code host:4242}.
	 * @return the default instance name
	 */
	public static String defaultInstanceName() {
		return InstanceNames.defaultName();
	}

	@Override
	public String toString() {
		return "LockSettings[keyPrefix='" + InstanceNames.escape(this.keyPrefix) + "', instanceName='"
				+ InstanceNames.escape(this.instanceName) + "', describeHolders=" + this.describeHolders
				+ ", lockListeners=" + this.lockListeners.size() + "]";
	}

	/**
	 * A builder of {@link LockSettings}, which validates each value as it is set.
	 */
	public static final class Builder {

		private String keyPrefix = DEFAULT_KEY_PREFIX;

		private String instanceName = defaultInstanceName();

		private boolean describeHolders = true;

		private List<LockListener> lockListeners = List.of();

		private ObservationRegistry observationRegistry = ObservationRegistry.NOOP;

		private @Nullable LockObservationConvention observationConvention;

		private Builder() {
		}

		/**
		 * Set the prefix put before every key in the store; {@value #DEFAULT_KEY_PREFIX}
		 * by default.
		 * @param keyPrefix the key prefix, may be empty; no control characters, as in
		 * keys
		 * @return this builder
		 * @throws IllegalArgumentException if the prefix is null or holds a control
		 * character
		 */
		public Builder keyPrefix(String keyPrefix) {
			Assert.isTrue(keyPrefix != null, "'keyPrefix' must not be null");
			for (int i = 0; i < keyPrefix.length(); i++) {
				if (Character.isISOControl(keyPrefix.charAt(i))) {
					throw new IllegalArgumentException("'keyPrefix' must not contain control characters but was '"
							+ InstanceNames.escape(keyPrefix) + "'");
				}
			}
			this.keyPrefix = keyPrefix;
			return this;
		}

		/**
		 * Set the name of this instance of the application, which operators recognise:
		 * shown with what this instance holds and waits for. By default the host name and
		 * the process id ({@code host:4242}).
		 * @param instanceName the name: not blank, at most
		 * {@value #MAX_INSTANCE_NAME_LENGTH} characters, no control characters
		 * @return this builder
		 * @throws IllegalArgumentException if the name is not valid
		 */
		public Builder instanceName(String instanceName) {
			Assert.isTrue(instanceName != null && !instanceName.isBlank(), "'instanceName' must not be blank");
			Assert.isTrue(instanceName.length() <= MAX_INSTANCE_NAME_LENGTH, () -> "'instanceName' must be at most "
					+ MAX_INSTANCE_NAME_LENGTH + " characters but was " + instanceName.length());
			Assert.isTrue(instanceName.chars().noneMatch(Character::isISOControl),
					() -> "'instanceName' must not contain control characters but was '"
							+ InstanceNames.escape(instanceName) + "'");
			this.instanceName = instanceName;
			return this;
		}

		/**
		 * Set whether each lock keeps the description of its holder: this instance's
		 * name, the thread, the lock's name and the time, which {@code GET
		 * /actuator/locks/{key}} shows on any instance and a busy
		 * {@code LockAcquisitionException} names. On by default; it travels in the owner
		 * token (see {@link io.distlock.store.LockHolder}), so it costs no Redis command,
		 * only the bytes of the description on each call that carries the token.
		 * @param describeHolders whether to describe holders
		 * @return this builder
		 */
		public Builder describeHolders(boolean describeHolders) {
			this.describeHolders = describeHolders;
			return this;
		}

		/**
		 * Set the listeners to tell about lock events.
		 * @param lockListeners the listeners, in the order they are told
		 * @return this builder
		 */
		public Builder lockListeners(List<? extends LockListener> lockListeners) {
			Assert.notNull(lockListeners, "'lockListeners' must not be null");
			Assert.noNullElements(lockListeners, "'lockListeners' must not contain null elements");
			this.lockListeners = List.copyOf(new ArrayList<>(lockListeners));
			return this;
		}

		/**
		 * Set the registry that observes lock acquisitions and holds; none by default.
		 * @param observationRegistry the observation registry
		 * @return this builder
		 */
		public Builder observationRegistry(ObservationRegistry observationRegistry) {
			Assert.notNull(observationRegistry, "'observationRegistry' must not be null");
			this.observationRegistry = observationRegistry;
			return this;
		}

		/**
		 * Set the convention that names the observations and their tags, instead of the
		 * default one.
		 * @param observationConvention the convention, or {@code null} for the default
		 * @return this builder
		 */
		public Builder observationConvention(@Nullable LockObservationConvention observationConvention) {
			this.observationConvention = observationConvention;
			return this;
		}

		/**
		 * Build the settings.
		 * @return the settings
		 */
		public LockSettings build() {
			return new LockSettings(this);
		}

	}

}
