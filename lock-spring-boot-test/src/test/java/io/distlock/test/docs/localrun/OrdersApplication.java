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

package io.distlock.test.docs.localrun;

import io.distlock.annotation.DistributedLocked;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * An application as a user writes it, with a main method and a locked service; its local
 * run on an embedded Redis is {@link TestOrdersApplication}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class OrdersApplication {

	public static void main(String[] args) {
		SpringApplication.run(OrdersApplication.class, args);
	}

	@Bean
	OrderService orderService() {
		return new OrderService();
	}

	/**
	 * The application's locked service.
	 */
	public static class OrderService {

		@DistributedLocked(key = "'order:' + #orderId")
		public void pay(long orderId) {
		}

	}

}
