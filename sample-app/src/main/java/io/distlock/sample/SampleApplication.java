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

package io.distlock.sample;

import io.distlock.sample.shop.Inventory;
import io.distlock.sample.shop.NewProduct;

import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * The sample shop: a Spring Boot application that uses distlock through the starter and
 * the standard {@code spring.data.redis.*} properties, nothing else.
 */
@SpringBootApplication
@EnableConfigurationProperties(SampleProperties.class)
@EnableScheduling
public class SampleApplication {

	@Bean
	ApplicationRunner defaultProduct(Inventory inventory) {
		return (arguments) -> inventory.putIfAbsent(1, new NewProduct("Espresso machine", 50));
	}

	/**
	 * Run the shop.
	 * @param args the command-line arguments
	 */
	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

}
