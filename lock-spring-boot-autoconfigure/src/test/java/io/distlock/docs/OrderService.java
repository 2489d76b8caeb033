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

import java.util.function.LongConsumer;

import io.distlock.annotation.DistributedLocked;
import io.distlock.annotation.LockFailurePolicy;

/**
 * The troubleshooting page's busy lock (docs/troubleshooting.md): a payment under the
 * lock of its order, which fails at once when another call holds it, and one that is
 * skipped instead.
 */
public class OrderService {

	private final LongConsumer charge;

	public OrderService(LongConsumer charge) {
		this.charge = charge;
	}

	@DistributedLocked(key = "'order:' + #orderId")
	public void pay(long orderId) {
		this.charge.accept(orderId);
	}

	@DistributedLocked(key = "'order:' + #orderId", onFailure = LockFailurePolicy.SKIP)
	public void payIfFree(long orderId) {
		this.charge.accept(orderId);
	}

}
