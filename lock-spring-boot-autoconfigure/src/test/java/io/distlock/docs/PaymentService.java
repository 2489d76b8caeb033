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

import io.distlock.LockContext;
import io.distlock.annotation.DistributedLocked;

/**
 * The README's annotation example: a payment taken under a lock on its order, written
 * with the lock's fencing token.
 */
public class PaymentService {

	private final FencedDocumentStore payments;

	public PaymentService(FencedDocumentStore payments) {
		this.payments = payments;
	}

	@DistributedLocked(key = "#orderId", ttl = "10s")
	public void pay(long orderId) {
		long token = LockContext.require().fencingToken();
		this.payments.write(orderId, "paid", token);
	}

}
