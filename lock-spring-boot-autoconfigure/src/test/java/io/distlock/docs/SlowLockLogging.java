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

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.distlock.LockEvent;
import io.distlock.LockListener;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The README's {@link LockListener} bean: one method per event, each given its record.
 */
@Configuration(proxyBeanMethods = false)
public class SlowLockLogging {

	private static final Log logger = LogFactory.getLog(SlowLockLogging.class);

	@Bean
	LockListener slowLockLogger() {
		return new LockListener() {

			@Override
			public void onReleased(LockEvent.Released event) {
				if (event.held().toSeconds() > 10) {
					logger.warn("Lock " + event.name() + " was held for " + event.held());
				}
			}

		};
	}

}
