-- HammerDB's keys and its two extra unique indexes, built after the data is loaded.
ALTER TABLE warehouse ADD CONSTRAINT warehouse_i1 PRIMARY KEY (w_id);
ALTER TABLE district ADD CONSTRAINT district_i1 PRIMARY KEY (d_w_id, d_id);
ALTER TABLE customer ADD CONSTRAINT customer_i1 PRIMARY KEY (c_w_id, c_d_id, c_id);
CREATE UNIQUE INDEX customer_i2 ON customer (c_w_id, c_d_id, c_last, c_first, c_id);
ALTER TABLE new_order ADD CONSTRAINT new_order_i1 PRIMARY KEY (no_w_id, no_d_id, no_o_id);
ALTER TABLE orders ADD CONSTRAINT orders_i1 PRIMARY KEY (o_w_id, o_d_id, o_id);
CREATE UNIQUE INDEX orders_i2 ON orders (o_w_id, o_d_id, o_c_id, o_id);
ALTER TABLE order_line ADD CONSTRAINT order_line_i1 PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number);
ALTER TABLE item ADD CONSTRAINT item_i1 PRIMARY KEY (i_id);
ALTER TABLE stock ADD CONSTRAINT stock_i1 PRIMARY KEY (s_i_id, s_w_id);
