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

package io.distlock.docs;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.distlock.LockContext;

import org.springframework.integration.support.locks.LockRegistry;

/**
 * The "Coming from Spring Integration" example: code written for a {@link LockRegistry},
 * unchanged, on the registry distlock auto-configures.
 */
public class ShipmentBatcher {

	private final LockRegistry<?> locks;

	private final List<String> shipped = new CopyOnWriteArrayList<>();

	public ShipmentBatcher(LockRegistry<?> locks) {
		this.locks = locks;
	}

	public void ship(String orderId) throws InterruptedException {
		this.locks.executeLocked("shipment:" + orderId, () -> {
			// Under a DistributedLock, the thread's distlock lock is this one.
			long token = LockContext.require().fencingToken();
			this.shipped.add(orderId + " with token " + token);
		});
	}

	public List<String> shipped() {
		return this.shipped;
	}

}
