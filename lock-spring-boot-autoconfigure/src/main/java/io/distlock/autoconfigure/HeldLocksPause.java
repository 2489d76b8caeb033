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

import java.util.function.IntSupplier;
import java.util.stream.Stream;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.Lifecycle;
import org.springframework.context.event.ContextStoppedEvent;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Keeps the Redis connections of held locks when Spring pauses the application context
 * (Spring Framework 7 pauses a test context that its context cache keeps for later): the
 * work that holds a lock goes on while its context is paused, and its lease is renewed,
 * and the lock released, through the connection factory, which the pause stopped. So if
 * locks are held once the context is paused, the connection factories it stopped are
 * started again; the restart of the context finds them running.
 *
 * <p>
 * The lease renewer and {@link HeldLocksShutdown} are not paused at all (see their
 * {@code isPauseable()}). An explicit {@code stop()} of the context is not a pause: held
 * locks are given back then, and nothing is started again.
 */
final class HeldLocksPause implements ApplicationListener<ContextStoppedEvent> {

	// By name: the event of a pause extends that of a stop, and Spring Framework 6.2
	// (the Spring Boot 3.5 generation) has no pause.
	private static final String PAUSED_EVENT = "org.springframework.context.event.ContextPausedEvent";

	private static final Log logger = LogFactory.getLog(HeldLocksPause.class);

	private final ApplicationContext context;

	private final IntSupplier heldLocks;

	private final ObjectProvider<RedisConnectionFactory> connectionFactories;

	/**
	 * Create the step for the given context.
	 * @param context the context whose pause to follow, not that of a child
	 * @param heldLocks counts the locks held now
	 * @param connectionFactories the connection factories of the context
	 */
	HeldLocksPause(ApplicationContext context, IntSupplier heldLocks,
			ObjectProvider<RedisConnectionFactory> connectionFactories) {
		this.context = context;
		this.heldLocks = heldLocks;
		this.connectionFactories = connectionFactories;
	}

	@Override
	public void onApplicationEvent(ContextStoppedEvent event) {
		if (event.getApplicationContext() != this.context || !PAUSED_EVENT.equals(event.getClass().getName())) {
			return;
		}
		int held = this.heldLocks.getAsInt();
		if (held == 0) {
			return;
		}
		Stream<Lifecycle> stopped = this.connectionFactories.orderedStream()
			.filter(Lifecycle.class::isInstance)
			.map(Lifecycle.class::cast)
			.filter((factory) -> !factory.isRunning());
		stopped.forEach((factory) -> {
			factory.start();
			logger.info(held + " lock(s) held as the application context pauses: started its Redis connection "
					+ "factory (" + factory.getClass().getSimpleName() + ") again, so that their leases are renewed "
					+ "and they can be released while their work goes on");
		});
	}

}
