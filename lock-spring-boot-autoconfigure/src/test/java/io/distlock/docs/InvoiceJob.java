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

import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.annotation.DistributedLocked;

import org.springframework.scheduling.annotation.Scheduled;

/**
 * The README's scheduled job: scheduled on every instance, run by one per day.
 */
public class InvoiceJob {

	private final AtomicInteger runs = new AtomicInteger();

	@Scheduled(cron = "0 0 2 * * *")
	@DistributedLocked(ttl = "5m", minHold = "1h")
	public void sendInvoices() {
		// Runs on one instance; the others skip this day's run quietly. The lock is
		// renewed while it runs, however long that is, and held for at least an hour.
		this.runs.incrementAndGet();
	}

	public int runs() {
		return this.runs.get();
	}

}
