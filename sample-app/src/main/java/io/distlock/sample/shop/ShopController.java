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

package io.distlock.sample.shop;

import java.util.List;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The shop's HTTP endpoints. A lock that stays busy or a lock store that fails is
 * answered by {@link LockExceptionHandler}.
 */
@RestController
@RequestMapping("/products")
public class ShopController {

	private final Shop shop;

	private final Inventory inventory;

	/**
	 * Create the controller.
	 * @param shop the shop
	 * @param inventory the shop's data
	 */
	public ShopController(Shop shop, Inventory inventory) {
		this.shop = shop;
		this.inventory = inventory;
	}

	@GetMapping("/{id}")
	Product get(@PathVariable long id) {
		return this.inventory.get(id);
	}

	@PutMapping("/{id}")
	Product put(@PathVariable long id, @RequestBody NewProduct product) {
		return this.inventory.put(id, product);
	}

	@GetMapping("/{id}/orders")
	List<Order> orders(@PathVariable long id) {
		return this.inventory.orders(id);
	}

	@PostMapping("/{id}/purchase")
	Purchase purchase(@PathVariable long id) {
		return this.shop.purchase(id);
	}

	@PostMapping("/{id}/purchase-unlocked")
	Purchase purchaseUnlocked(@PathVariable long id) {
		return this.shop.purchaseUnlocked(id);
	}

	@PostMapping("/{id}/stocktake")
	Stocktake stocktake(@PathVariable long id) {
		return this.shop.stocktake(id);
	}

	@ExceptionHandler
	ProblemDetail soldOut(SoldOutException ex) {
		return ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, ex.getMessage());
	}

	@ExceptionHandler
	ProblemDetail notFound(ProductNotFoundException ex) {
		return ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, ex.getMessage());
	}

	// Nothing was sold: the purchase lost its lock before writing, a fault of this node
	// (paused longer than the ttl), not a conflict the client can wait out.
	@ExceptionHandler
	ProblemDetail staleWrite(StaleFencingTokenException ex) {
		return ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR, ex.getMessage());
	}

}
