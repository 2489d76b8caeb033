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

import io.distlock.LockEvent;
import io.distlock.LockListener;
import io.distlock.LockLostEvent;

import org.springframework.context.ApplicationEventPublisher;

/**
 * Publishes a {@link LockLostEvent} for every {@link LockEvent.Lost lock found lost}, so
 * application code can react with an ordinary {@code @EventListener}.
 */
class LockEventPublisher implements LockListener {

	private final ApplicationEventPublisher eventPublisher;

	LockEventPublisher(ApplicationEventPublisher eventPublisher) {
		this.eventPublisher = eventPublisher;
	}

	@Override
	public void onLost(LockEvent.Lost event) {
		this.eventPublisher.publishEvent(new LockLostEvent(this, event));
	}

}
