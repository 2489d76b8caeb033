package com.example.orders;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.distlock.annotation.DistributedLocked;

import org.springframework.stereotype.Service;

@Service
public class OrderService {

	private final Set<Long> paid = ConcurrentHashMap.newKeySet();

	@DistributedLocked(key = "'order:' + #orderId", ttl = "10s")
	public void pay(long orderId) {
		// Runs on one instance at a time per order: check, charge, record.
		if (this.paid.add(orderId)) {
			System.out.println("Charging order " + orderId);
		}
	}

}
