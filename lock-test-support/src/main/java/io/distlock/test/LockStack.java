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

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

import io.distlock.LockListener;
import io.distlock.LockSettings;
import io.distlock.LockTemplate;
import io.distlock.engine.LockEngine;
import io.distlock.lease.LeaseRenewer;
import io.distlock.observation.LockObservationConvention;
import io.distlock.redis.RedisLockClient;
import io.distlock.redis.RedisReleaseNotifier;
import io.distlock.store.LockClient;
import io.distlock.waiting.LockWaiter;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.scheduling.TaskScheduler;

/**
 * The lock stack of one application on one Redis store, wired as the auto-configuration
 * wires it: a {@link RedisLockClient}, a {@link LockWaiter} signalled by a
 * {@link RedisReleaseNotifier}, a {@link LeaseRenewer} and a {@link LockTemplate} over
 * them.
 *
 * <pre class="code">
 * try (LockStack stack = LockStack.on(redis.endpoint()).keyPrefix("app:").build()) {
 *     stack.template().tryAcquire("orders", ttl, waitTime);
 * }
 * </pre>
 *
 * <p>
 * Built {@link #on(RedisEndpoint) on an endpoint}, the stack connects with a connection
 * factory of its own, which {@link #close()} destroys after closing the renewer and the
 * notifier; built {@link #on(RedisConnectionFactory) on a connection factory}, it leaves
 * the factory to its caller. {@link Builder#build()} returns once the notifier's
 * subscription is up, so that no release is missed by the first waiter.
 */
public final class LockStack implements AutoCloseable {

	private static final Duration SUBSCRIPTION_TIMEOUT = Duration.ofSeconds(10);

	private final RedisConnectionFactory connectionFactory;

	private final @Nullable LettuceConnectionFactory ownConnectionFactory;

	private final RedisLockClient client;

	private final LockClient templateClient;

	private final LockWaiter waiter;

	private final @Nullable RedisReleaseNotifier notifier;

	private final @Nullable LeaseRenewer renewer;

	private final LockTemplate template;

	private LockStack(Builder builder, RedisConnectionFactory connectionFactory,
			@Nullable LettuceConnectionFactory ownConnectionFactory) {
		this.connectionFactory = connectionFactory;
		this.ownConnectionFactory = ownConnectionFactory;
		this.client = builder.client.apply(connectionFactory);
		this.templateClient = (builder.templateClient != null) ? builder.templateClient.apply(this.client)
				: this.client;
		this.waiter = builder.waiter;
		this.notifier = builder.notifications ? new RedisReleaseNotifier(connectionFactory, this.waiter) : null;
		this.renewer = builder.renewal ? newRenewer(this.templateClient, builder) : null;
		LockSettings.Builder settings = LockSettings.builder();
		if (builder.keyPrefix != null) {
			settings.keyPrefix(builder.keyPrefix);
		}
		if (builder.listeners != null) {
			settings.lockListeners(builder.listeners);
		}
		if (builder.observationRegistry != null) {
			settings.observationRegistry(builder.observationRegistry);
		}
		if (builder.observationConvention != null) {
			settings.observationConvention(builder.observationConvention);
		}
		LockEngine engine = (this.renewer != null)
				? new LockEngine(this.templateClient, this.waiter, settings.build(), this.renewer)
				: new LockEngine(this.templateClient, this.waiter, settings.build());
		this.template = new LockTemplate(engine);
	}

	private static LeaseRenewer newRenewer(LockClient client, Builder builder) {
		TaskScheduler scheduler = builder.renewerScheduler;
		return (scheduler != null) ? new LeaseRenewer(client, builder.maxHold, scheduler)
				: new LeaseRenewer(client, builder.maxHold);
	}

	private LockStack start() {
		RedisReleaseNotifier notifier = this.notifier;
		if (notifier != null) {
			try {
				notifier.start();
				Polling.await(SUBSCRIPTION_TIMEOUT, "the release notifier's subscription", notifier::isSubscribed,
						() -> "not subscribed");
			}
			catch (RuntimeException ex) {
				try {
					close();
				}
				catch (RuntimeException closeFailure) {
					ex.addSuppressed(closeFailure);
				}
				throw ex;
			}
		}
		return this;
	}

	/**
	 * Start building a stack on the given endpoint, through a connection factory of its
	 * own with {@link RedisConnections#TIMEOUT the harness's timeout}.
	 * @param endpoint the Redis server
	 * @return a builder
	 */
	public static Builder on(RedisEndpoint endpoint) {
		return new Builder(endpoint, null);
	}

	/**
	 * Start building a stack on the given started connection factory, which the caller
	 * destroys after closing the stack.
	 * @param connectionFactory the connection factory
	 * @return a builder
	 */
	public static Builder on(RedisConnectionFactory connectionFactory) {
		return new Builder(null, connectionFactory);
	}

	/**
	 * Return the connection factory that the client and the notifier use.
	 * @return the connection factory
	 */
	public RedisConnectionFactory connectionFactory() {
		return this.connectionFactory;
	}

	/**
	 * Return the lock client.
	 * @return the client
	 */
	public RedisLockClient client() {
		return this.client;
	}

	/**
	 * Return the client that the template and the renewer call: the {@link #client()
	 * client} itself, or the wrapper {@link Builder#templateClient(Function) built around
	 * it}.
	 * @return the template's client
	 */
	public LockClient templateClient() {
		return this.templateClient;
	}

	/**
	 * Return the waiter that parks the template's callers and that the notifier signals.
	 * @return the waiter
	 */
	public LockWaiter waiter() {
		return this.waiter;
	}

	/**
	 * Return the release notifier.
	 * @return the notifier
	 * @throws IllegalStateException if the stack was built
	 * {@link Builder#withoutReleaseNotifier() without one}
	 */
	public RedisReleaseNotifier notifier() {
		return built(this.notifier, "a release notifier");
	}

	/**
	 * Return the lease renewer that the template renews its leases with.
	 * @return the renewer
	 * @throws IllegalStateException if the stack was built
	 * {@link Builder#withoutLeaseRenewer() without one}
	 */
	public LeaseRenewer renewer() {
		return built(this.renewer, "a lease renewer");
	}

	private static <T> T built(@Nullable T part, String description) {
		if (part == null) {
			throw new IllegalStateException("The stack was built without " + description);
		}
		return part;
	}

	/**
	 * Return the lock template.
	 * @return the template
	 */
	public LockTemplate template() {
		return this.template;
	}

	/**
	 * Return a template over the same client as {@link #template()}, this stack's waiter
	 * and lease renewer, on an engine of its own with the given settings: for a test of
	 * one setting.
	 * @param settings the settings
	 * @return a new template
	 */
	public LockTemplate template(LockSettings settings) {
		return new LockTemplate(
				(this.renewer != null) ? new LockEngine(this.templateClient, this.waiter, settings, this.renewer)
						: new LockEngine(this.templateClient, this.waiter, settings));
	}

	/**
	 * Close the renewer, then the notifier, then destroy the connection factory if the
	 * stack created it; each also when closing the one before failed.
	 */
	@Override
	public void close() {
		RuntimeException failure = null;
		if (this.renewer != null) {
			failure = run(this.renewer::close, failure);
		}
		if (this.notifier != null) {
			failure = run(this.notifier::close, failure);
		}
		if (this.ownConnectionFactory != null) {
			failure = run(this.ownConnectionFactory::destroy, failure);
		}
		if (failure != null) {
			throw failure;
		}
	}

	private static @Nullable RuntimeException run(Runnable step, @Nullable RuntimeException failure) {
		try {
			step.run();
			return failure;
		}
		catch (RuntimeException ex) {
			if (failure == null) {
				return ex;
			}
			failure.addSuppressed(ex);
			return failure;
		}
	}

	/**
	 * Builds a {@link LockStack}; every option left unset has the default of the
	 * auto-configuration or of the type configured.
	 */
	public static final class Builder {

		private final @Nullable RedisEndpoint endpoint;

		private final @Nullable RedisConnectionFactory connectionFactory;

		private Duration commandTimeout = RedisConnections.TIMEOUT;

		private Function<? super RedisConnectionFactory, ? extends RedisLockClient> client = RedisLockClient::new;

		private @Nullable Function<? super RedisLockClient, ? extends LockClient> templateClient;

		private LockWaiter waiter = new LockWaiter(Duration.ofMillis(500));

		private boolean notifications = true;

		private boolean renewal = true;

		private Duration maxHold = Duration.ofHours(1);

		private @Nullable TaskScheduler renewerScheduler;

		private @Nullable String keyPrefix;

		private @Nullable List<LockListener> listeners;

		private @Nullable ObservationRegistry observationRegistry;

		private @Nullable LockObservationConvention observationConvention;

		private Builder(@Nullable RedisEndpoint endpoint, @Nullable RedisConnectionFactory connectionFactory) {
			this.endpoint = endpoint;
			this.connectionFactory = connectionFactory;
		}

		/**
		 * Set the command and connect timeout of the stack's own connection factory;
		 * {@link RedisConnections#TIMEOUT} by default.
		 * @param timeout the timeout
		 * @return this builder
		 * @throws IllegalStateException if the stack is built on a given connection
		 * factory
		 */
		public Builder commandTimeout(Duration timeout) {
			if (this.endpoint == null) {
				throw new IllegalStateException("The timeout of a given connection factory is its own");
			}
			this.commandTimeout = timeout;
			return this;
		}

		/**
		 * Set how the lock client is created from the connection factory, to configure it
		 * or to use a subclass; {@code RedisLockClient::new} by default.
		 * @param client creates the client
		 * @return this builder
		 */
		public Builder client(Function<? super RedisConnectionFactory, ? extends RedisLockClient> client) {
			this.client = client;
			return this;
		}

		/**
		 * Set the client that the template and the renewer call, a wrapper around the
		 * stack's client that records, delays or restricts their calls; the client itself
		 * by default. The notifier and {@link LockStack#client()} stay on the client
		 * itself.
		 * @param wrapper makes the template's client from the stack's client
		 * @return this builder
		 */
		public Builder templateClient(Function<? super RedisLockClient, ? extends LockClient> wrapper) {
			this.templateClient = wrapper;
			return this;
		}

		/**
		 * Set the waiter; by default one that backs off up to 500 ms.
		 * @param waiter the waiter
		 * @return this builder
		 */
		public Builder waiter(LockWaiter waiter) {
			this.waiter = waiter;
			return this;
		}

		/**
		 * Use a waiter that backs off from the given time up to the given maximum.
		 * @param initialBackoff the first backoff
		 * @param maxBackoff the longest backoff
		 * @return this builder
		 */
		public Builder waiterBackoff(Duration initialBackoff, Duration maxBackoff) {
			return waiter(new LockWaiter(initialBackoff, maxBackoff));
		}

		/**
		 * Build no release notifier: waiters notice releases by their backoff only.
		 * @return this builder
		 */
		public Builder withoutReleaseNotifier() {
			this.notifications = false;
			return this;
		}

		/**
		 * Build no lease renewer: the template keeps the default renewer it creates
		 * itself.
		 * @return this builder
		 */
		public Builder withoutLeaseRenewer() {
			this.renewal = false;
			return this;
		}

		/**
		 * Set the renewer's maximum hold time; one hour by default.
		 * @param maxHold how long the renewer renews a lease at most
		 * @return this builder
		 */
		public Builder maxHold(Duration maxHold) {
			this.maxHold = maxHold;
			return this;
		}

		/**
		 * Set the scheduler the renewer runs on and whose clock times the leases; by
		 * default one of the renewer's own.
		 * @param scheduler the scheduler
		 * @return this builder
		 */
		public Builder renewerScheduler(TaskScheduler scheduler) {
			this.renewerScheduler = scheduler;
			return this;
		}

		/**
		 * Set the template's key prefix; {@link LockTemplate#DEFAULT_KEY_PREFIX} by
		 * default.
		 * @param keyPrefix the prefix
		 * @return this builder
		 */
		public Builder keyPrefix(String keyPrefix) {
			this.keyPrefix = keyPrefix;
			return this;
		}

		/**
		 * Set the template's lock listeners; none by default.
		 * @param listeners the listeners
		 * @return this builder
		 */
		public Builder listeners(LockListener... listeners) {
			return listeners(List.of(listeners));
		}

		/**
		 * Set the template's lock listeners; none by default.
		 * @param listeners the listeners
		 * @return this builder
		 */
		public Builder listeners(List<LockListener> listeners) {
			this.listeners = List.copyOf(listeners);
			return this;
		}

		/**
		 * Set the template's observation registry; none by default.
		 * @param observationRegistry the registry
		 * @return this builder
		 */
		public Builder observationRegistry(ObservationRegistry observationRegistry) {
			this.observationRegistry = observationRegistry;
			return this;
		}

		/**
		 * Set the template's observation convention; the template's default by default.
		 * @param observationConvention the convention
		 * @return this builder
		 */
		public Builder observationConvention(LockObservationConvention observationConvention) {
			this.observationConvention = observationConvention;
			return this;
		}

		/**
		 * Build the stack and start its notifier, waiting for the subscription.
		 * @return the started stack; close it when done
		 */
		public LockStack build() {
			RedisEndpoint endpoint = this.endpoint;
			LettuceConnectionFactory own = (endpoint != null)
					? RedisConnections.connectionFactory(endpoint, this.commandTimeout) : null;
			RedisConnectionFactory connectionFactory = (own != null) ? own : this.connectionFactory;
			if (connectionFactory == null) {
				throw new IllegalStateException("Neither an endpoint nor a connection factory");
			}
			LockStack stack;
			try {
				stack = new LockStack(this, connectionFactory, own);
			}
			catch (RuntimeException ex) {
				if (own != null) {
					own.destroy();
				}
				throw ex;
			}
			return stack.start();
		}

	}

}
