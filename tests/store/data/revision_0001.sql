-- A pbem database made by schema revision 0001 (pbem 0.1.0): a running game of each kind
-- (bt-1: three players in round 1, phase 2; sm-1: two players, Bo to move). Outbox emptied.
BEGIN TRANSACTION;
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
INSERT INTO "alembic_version" VALUES('0001');
CREATE TABLE counters (
	name VARCHAR(64) NOT NULL, 
	value INTEGER NOT NULL, 
	CONSTRAINT pk_counters PRIMARY KEY (name)
);
INSERT INTO "counters" VALUES('game-id:bt',1);
INSERT INTO "counters" VALUES('game-id:sm',1);
CREATE TABLE games (
	id VARCHAR(32) NOT NULL, 
	game VARCHAR(32) NOT NULL, 
	variant VARCHAR(32) NOT NULL, 
	seed BIGINT NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	state TEXT NOT NULL, 
	version INTEGER NOT NULL, 
	data_file TEXT, 
	deadline_hours FLOAT, 
	deadline_at DATETIME, 
	policy VARCHAR(16) NOT NULL, 
	created_at DATETIME NOT NULL, 
	updated_at DATETIME NOT NULL, 
	CONSTRAINT pk_games PRIMARY KEY (id), 
	CONSTRAINT ck_games_policy CHECK (policy IN ('wait', 'default', 'skip')), 
	CONSTRAINT ck_games_status CHECK (status IN ('running', 'paused', 'finished'))
);
INSERT INTO "games" VALUES('bt-1','bigtime','standard',7,'running','{"data_file":null,"rng":12671394942373533246,"round":1,"phase":2,"over":false,"chart":{"Variety":5,"Animal Acts":6,"Magicians & Ventriloquists":4,"Acrobats & Jugglers":2,"Comedians":7,"Musicians":3},"am_row":["T12","T11","T09","T19"],"pm_row":["T08","T05","T24","T15"],"coming_am":[],"coming_pm":[],"headliner_row":["H32","H36","H26","H40"],"headliner_deck":["H25","H27","H28","H29","H30","H31","H33","H34","H35","H37","H38","H39","H41","H42","H43","H44","H45","H46","H47","H48"],"fixed_deals":{},"revealed_bids":[[2],[],[1]],"last_picks":[{"seat":0,"row":"A.M.","card":"T22","paid":[2],"penalty":0},{"seat":2,"row":"A.M.","card":"T07","paid":[1],"penalty":2},{"seat":1,"row":"A.M.","card":"T03","paid":[],"penalty":3},{"seat":1,"row":"P.M.","card":"T17","paid":[],"penalty":1},{"seat":2,"row":"P.M.","card":"T13","paid":[],"penalty":1},{"seat":0,"row":"P.M.","card":"T06","paid":[],"penalty":2}],"theaters":[{"hand":[3,3,3,3,2,2,2,2,1,1,1,1],"review":"Smash","posterity":0,"playbill":[{"card":"T22","paid":[2],"penalty":0},{"card":"T06","paid":[],"penalty":2}],"hall_of_fame":[],"hook_choice":null,"order":null,"draft":{"am":[],"pm":[],"headliner":null},"headliner_prefs":null,"last_show":[],"box_office":null,"hooked":null},{"hand":[3,3,3,3,2,2,2,2,1,1,1,1],"review":"Flop","posterity":0,"playbill":[{"card":"T03","paid":[],"penalty":3},{"card":"T17","paid":[],"penalty":1}],"hall_of_fame":[],"hook_choice":null,"order":null,"draft":{"am":[],"pm":[],"headliner":null},"headliner_prefs":null,"last_show":[],"box_office":null,"hooked":null},{"hand":[3,3,3,3,2,2,2,2,1,1,1,1],"review":"So-So","posterity":0,"playbill":[{"card":"T07","paid":[1],"penalty":2},{"card":"T13","paid":[],"penalty":1}],"hall_of_fame":[],"hook_choice":null,"order":null,"draft":{"am":[],"pm":[],"headliner":null},"headliner_prefs":null,"last_show":[],"box_office":null,"hooked":null}]}',4,NULL,NULL,NULL,'wait','2026-12-01 16:48:29.469380','2026-12-01 16:48:42.625584');
INSERT INTO "games" VALUES('sm-1','showmanager','standard',8,'running','{"format":1,"data_file":null,"variant":"standard","rng":10072746118663351755,"deck":[23,70,40,107,79,58,36,74,68,71,46,89,110,95,19,16,108,31,77,73,57,47,28,34,119,98,45,82,50,120,12,66,90,8,42,109,2,93,113,63,17,114,100,49,106,13,65,87,117,44,96,10,92,41,53,20,4,62,69,112,51,84,115,103,88,21,48,15,22,91,111,3,54,38,59,104,29,14,97,78,60,118,30,85,33,99,37,105,83,27,52,116,56,101,102,39,5,61,72,24,32,55,86,26,25,18,35,11,6,94,1,81,7,43,9],"discard":[],"display":[67,80,64,75],"players":[{"money":36,"staged":[0,0,0,0],"hand":[76]},{"money":36,"staged":[0,0,0,0],"hand":[]}],"cities":[[],[],[],[],[]],"musical_city":[null,null,null,null],"turn":1,"turn_loaned":false,"turn_refreshed":false}',3,NULL,48.0,'2026-12-03 16:48:44.783361','wait','2026-12-01 16:48:30.907587','2026-12-01 16:48:44.838013');
CREATE TABLE history (
	id INTEGER NOT NULL, 
	game_id VARCHAR(32) NOT NULL, 
	seq INTEGER NOT NULL, 
	at DATETIME NOT NULL, 
	actor VARCHAR(320) NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	summary TEXT NOT NULL, 
	why TEXT, 
	inbound_id INTEGER, 
	state_after TEXT NOT NULL, 
	CONSTRAINT pk_history PRIMARY KEY (id), 
	CONSTRAINT ck_history_kind CHECK (kind IN ('order', 'gm', 'system')), 
	CONSTRAINT fk_history_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT fk_history_inbound_id_inbound FOREIGN KEY(inbound_id) REFERENCES inbound (id) ON DELETE SET NULL, 
	CONSTRAINT uq_history_game_id_seq UNIQUE (game_id, seq)
);
INSERT INTO "history" VALUES(1,'bt-1',1,'2026-12-01 16:48:29.477816','gm','gm','game started (seed 7)',NULL,NULL,'{"data_file":null,"rng":12671394942373533246,"round":1,"phase":1,"over":false,"chart":{"Variety":5,"Animal Acts":6,"Magicians & Ventriloquists":4,"Acrobats & Jugglers":2,"Comedians":7,"Musicians":3},"am_row":["T07","T03","T22","T16"],"pm_row":["T20","T17","T06","T13"],"coming_am":["T12","T11","T09","T19"],"coming_pm":["T08","T05","T24","T15"],"headliner_row":["H32","H36","H26","H40"],"headliner_deck":["H25","H27","H28","H29","H30","H31","H33","H34","H35","H37","H38","H39","H41","H42","H43","H44","H45","H46","H47","H48"],"fixed_deals":{},"revealed_bids":[],"last_picks":[],"theaters":[{"hand":[3,3,3,3,2,2,2,2,2,1,1,1,1],"review":"Smash","posterity":0,"playbill":[],"hall_of_fame":[],"hook_choice":null,"order":null,"draft":{"am":[],"pm":[],"headliner":null},"headliner_prefs":null,"last_show":[],"box_office":null,"hooked":null},{"hand":[3,3,3,3,2,2,2,2,1,1,1,1],"review":"Flop","posterity":0,"playbill":[],"hall_of_fame":[],"hook_choice":null,"order":null,"draft":{"am":[],"pm":[],"headliner":null},"headliner_prefs":null,"last_show":[],"box_office":null,"hooked":null},{"hand":[3,3,3,3,2,2,2,2,1,1,1,1,1],"review":"So-So","posterity":0,"playbill":[],"hall_of_fame":[],"hook_choice":null,"order":null,"draft":{"am":[],"pm":[],"headliner":null},"headliner_prefs":null,"last_show":[],"box_office":null,"hooked":null}]}');
INSERT INTO "history" VALUES(2,'sm-1',1,'2026-12-01 16:48:30.912543','gm','gm','game started (seed 8)',NULL,NULL,'{"format":1,"data_file":null,"variant":"standard","rng":10072746118663351755,"deck":[23,70,40,107,79,58,36,74,68,71,46,89,110,95,19,16,108,31,77,73,57,47,28,34,119,98,45,82,50,120,12,66,90,8,42,109,2,93,113,63,17,114,100,49,106,13,65,87,117,44,96,10,92,41,53,20,4,62,69,112,51,84,115,103,88,21,48,15,22,91,111,3,54,38,59,104,29,14,97,78,60,118,30,85,33,99,37,105,83,27,52,116,56,101,102,39,5,61,72,24,32,55,86,26,25,18,35,11,6,94,1,81,7,43,9,75],"discard":[],"display":[76,67,80,64],"players":[{"money":36,"staged":[0,0,0,0],"hand":[]},{"money":36,"staged":[0,0,0,0],"hand":[]}],"cities":[[],[],[],[],[]],"musical_city":[null,null,null,null],"turn":0,"turn_loaned":false,"turn_refreshed":false}');
INSERT INTO "history" VALUES(3,'bt-1',2,'2026-12-01 16:48:39.010288','gm','gm','orders for Ann: BID 2',NULL,NULL,'{"data_file":null,"rng":12671394942373533246,"round":1,"phase":1,"over":false,"chart":{"Variety":5,"Animal Acts":6,"Magicians & Ventriloquists":4,"Acrobats & Jugglers":2,"Comedians":7,"Musicians":3},"am_row":["T07","T03","T22","T16"],"pm_row":["T20","T17","T06","T13"],"coming_am":["T12","T11","T09","T19"],"coming_pm":["T08","T05","T24","T15"],"headliner_row":["H32","H36","H26","H40"],"headliner_deck":["H25","H27","H28","H29","H30","H31","H33","H34","H35","H37","H38","H39","H41","H42","H43","H44","H45","H46","H47","H48"],"fixed_deals":{},"revealed_bids":[],"last_picks":[],"theaters":[{"hand":[3,3,3,3,2,2,2,2,2,1,1,1,1],"review":"Smash","posterity":0,"playbill":[],"hall_of_fame":[],"hook_choice":null,"order":{"bid":[2],"am":[],"pm":[]},"draft":{"am":[],"pm":[],"headliner":null},"headliner_prefs":null,"last_show":[],"box_office":null,"hooked":null},{"hand":[3,3,3,3,2,2,2,2,1,1,1,1],"review":"Flop","posterity":0,"playbill":[],"hall_of_fame":[],"hook_choice":null,"order":null,"draft":{"am":[],"pm":[],"headliner":null},"headliner_prefs":null,"last_show":[],"box_office":null,"hooked":null},{"hand":[3,3,3,3,2,2,2,2,1,1,1,1,1],"review":"So-So","posterity":0,"playbill":[],"hall_of_fame":[],"hook_choice":null,"order":null,"draft":{"am":[],"pm":[],"headliner":null},"headliner_prefs":null,"last_show":[],"box_office":null,"hooked":null}]}');
INSERT INTO "history" VALUES(4,'bt-1',3,'2026-12-01 16:48:40.649182','gm','gm','orders for Bo: BID 0',NULL,NULL,'{"data_file":null,"rng":12671394942373533246,"round":1,"phase":1,"over":false,"chart":{"Variety":5,"Animal Acts":6,"Magicians & Ventriloquists":4,"Acrobats & Jugglers":2,"Comedians":7,"Musicians":3},"am_row":["T07","T03","T22","T16"],"pm_row":["T20","T17","T06","T13"],"coming_am":["T12","T11","T09","T19"],"coming_pm":["T08","T05","T24","T15"],"headliner_row":["H32","H36","H26","H40"],"headliner_deck":["H25","H27","H28","H29","H30","H31","H33","H34","H35","H37","H38","H39","H41","H42","H43","H44","H45","H46","H47","H48"],"fixed_deals":{},"revealed_bids":[],"last_picks":[],"theaters":[{"hand":[3,3,3,3,2,2,2,2,2,1,1,1,1],"review":"Smash","posterity":0,"playbill":[],"hall_of_fame":[],"hook_choice":null,"order":{"bid":[2],"am":[],"pm":[]},"draft":{"am":[],"pm":[],"headliner":null},"headliner_prefs":null,"last_show":[],"box_office":null,"hooked":null},{"hand":[3,3,3,3,2,2,2,2,1,1,1,1],"review":"Flop","posterity":0,"playbill":[],"hall_of_fame":[],"hook_choice":null,"order":{"bid":[],"am":[],"pm":[]},"draft":{"am":[],"pm":[],"headliner":null},"headliner_prefs":null,"last_show":[],"box_office":null,"hooked":null},{"hand":[3,3,3,3,2,2,2,2,1,1,1,1,1],"review":"So-So","posterity":0,"playbill":[],"hall_of_fame":[],"hook_choice":null,"order":null,"draft":{"am":[],"pm":[],"headliner":null},"headliner_prefs":null,"last_show":[],"box_office":null,"hooked":null}]}');
INSERT INTO "history" VALUES(5,'bt-1',4,'2026-12-01 16:48:42.627134','gm','gm','orders for Cy: BID 1',NULL,NULL,'{"data_file":null,"rng":12671394942373533246,"round":1,"phase":2,"over":false,"chart":{"Variety":5,"Animal Acts":6,"Magicians & Ventriloquists":4,"Acrobats & Jugglers":2,"Comedians":7,"Musicians":3},"am_row":["T12","T11","T09","T19"],"pm_row":["T08","T05","T24","T15"],"coming_am":[],"coming_pm":[],"headliner_row":["H32","H36","H26","H40"],"headliner_deck":["H25","H27","H28","H29","H30","H31","H33","H34","H35","H37","H38","H39","H41","H42","H43","H44","H45","H46","H47","H48"],"fixed_deals":{},"revealed_bids":[[2],[],[1]],"last_picks":[{"seat":0,"row":"A.M.","card":"T22","paid":[2],"penalty":0},{"seat":2,"row":"A.M.","card":"T07","paid":[1],"penalty":2},{"seat":1,"row":"A.M.","card":"T03","paid":[],"penalty":3},{"seat":1,"row":"P.M.","card":"T17","paid":[],"penalty":1},{"seat":2,"row":"P.M.","card":"T13","paid":[],"penalty":1},{"seat":0,"row":"P.M.","card":"T06","paid":[],"penalty":2}],"theaters":[{"hand":[3,3,3,3,2,2,2,2,1,1,1,1],"review":"Smash","posterity":0,"playbill":[{"card":"T22","paid":[2],"penalty":0},{"card":"T06","paid":[],"penalty":2}],"hall_of_fame":[],"hook_choice":null,"order":null,"draft":{"am":[],"pm":[],"headliner":null},"headliner_prefs":null,"last_show":[],"box_office":null,"hooked":null},{"hand":[3,3,3,3,2,2,2,2,1,1,1,1],"review":"Flop","posterity":0,"playbill":[{"card":"T03","paid":[],"penalty":3},{"card":"T17","paid":[],"penalty":1}],"hall_of_fame":[],"hook_choice":null,"order":null,"draft":{"am":[],"pm":[],"headliner":null},"headliner_prefs":null,"last_show":[],"box_office":null,"hooked":null},{"hand":[3,3,3,3,2,2,2,2,1,1,1,1],"review":"So-So","posterity":0,"playbill":[{"card":"T07","paid":[1],"penalty":2},{"card":"T13","paid":[],"penalty":1}],"hall_of_fame":[],"hook_choice":null,"order":null,"draft":{"am":[],"pm":[],"headliner":null},"headliner_prefs":null,"last_show":[],"box_office":null,"hooked":null}]}');
INSERT INTO "history" VALUES(6,'sm-1',2,'2026-12-01 16:48:44.765639','gm','gm','orders for Ann: HIRE 0',NULL,NULL,'{"format":1,"data_file":null,"variant":"standard","rng":10072746118663351755,"deck":[23,70,40,107,79,58,36,74,68,71,46,89,110,95,19,16,108,31,77,73,57,47,28,34,119,98,45,82,50,120,12,66,90,8,42,109,2,93,113,63,17,114,100,49,106,13,65,87,117,44,96,10,92,41,53,20,4,62,69,112,51,84,115,103,88,21,48,15,22,91,111,3,54,38,59,104,29,14,97,78,60,118,30,85,33,99,37,105,83,27,52,116,56,101,102,39,5,61,72,24,32,55,86,26,25,18,35,11,6,94,1,81,7,43,9],"discard":[],"display":[67,80,64,75],"players":[{"money":36,"staged":[0,0,0,0],"hand":[76]},{"money":36,"staged":[0,0,0,0],"hand":[]}],"cities":[[],[],[],[],[]],"musical_city":[null,null,null,null],"turn":1,"turn_loaned":false,"turn_refreshed":false}');
CREATE TABLE inbound (
	id INTEGER NOT NULL, 
	message_key TEXT NOT NULL, 
	raw BLOB NOT NULL, 
	received_at DATETIME NOT NULL, 
	source TEXT NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	reason TEXT NOT NULL, 
	game_id VARCHAR(32), 
	attempts INTEGER NOT NULL, 
	CONSTRAINT pk_inbound PRIMARY KEY (id), 
	CONSTRAINT ck_inbound_status CHECK (status IN ('new', 'accepted', 'rejected', 'ignored', 'failed', 'queued')), 
	CONSTRAINT fk_inbound_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE SET NULL, 
	CONSTRAINT uq_inbound_message_key UNIQUE (message_key)
);
CREATE TABLE mail_state (
	"key" VARCHAR(200) NOT NULL, 
	value TEXT NOT NULL, 
	CONSTRAINT pk_mail_state PRIMARY KEY ("key")
);
CREATE TABLE outbox (
	id INTEGER NOT NULL, 
	message_id TEXT NOT NULL, 
	game_id VARCHAR(32), 
	to_address VARCHAR(320) NOT NULL, 
	kind VARCHAR(32) NOT NULL, 
	raw BLOB NOT NULL, 
	created_at DATETIME NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	attempts INTEGER NOT NULL, 
	next_attempt_at DATETIME NOT NULL, 
	last_error TEXT, 
	sent_at DATETIME, 
	CONSTRAINT pk_outbox PRIMARY KEY (id), 
	CONSTRAINT ck_outbox_status CHECK (status IN ('pending', 'sent', 'failed')), 
	CONSTRAINT fk_outbox_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE SET NULL, 
	CONSTRAINT uq_outbox_message_id UNIQUE (message_id)
);
CREATE TABLE queued_orders (
	id INTEGER NOT NULL, 
	game_id VARCHAR(32) NOT NULL, 
	position INTEGER NOT NULL, 
	inbound_id INTEGER NOT NULL, 
	lines TEXT NOT NULL, 
	created_at DATETIME NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	reason TEXT NOT NULL, 
	CONSTRAINT pk_queued_orders PRIMARY KEY (id), 
	CONSTRAINT ck_queued_orders_status CHECK (status IN ('waiting', 'applied', 'refused')), 
	CONSTRAINT fk_queued_orders_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT fk_queued_orders_inbound_id_inbound FOREIGN KEY(inbound_id) REFERENCES inbound (id) ON DELETE CASCADE
);
CREATE TABLE seats (
	id INTEGER NOT NULL, 
	game_id VARCHAR(32) NOT NULL, 
	position INTEGER NOT NULL, 
	address VARCHAR(320) NOT NULL, 
	name VARCHAR(200), 
	secret VARCHAR(16) NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	bot_name VARCHAR(64), 
	CONSTRAINT pk_seats PRIMARY KEY (id), 
	CONSTRAINT ck_seats_kind CHECK (kind IN ('human', 'bot')), 
	CONSTRAINT fk_seats_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT uq_seats_game_id_position UNIQUE (game_id, position), 
	CONSTRAINT uq_seats_game_id_secret UNIQUE (game_id, secret)
);
INSERT INTO "seats" VALUES(1,'bt-1',0,'ann@example.org','Ann','rbupm','human',NULL);
INSERT INTO "seats" VALUES(2,'bt-1',1,'bo@example.org','Bo','acbnr','human',NULL);
INSERT INTO "seats" VALUES(3,'bt-1',2,'cy@example.org','Cy','jwqve','human',NULL);
INSERT INTO "seats" VALUES(4,'sm-1',0,'ann@example.org','Ann','cugsn','human',NULL);
INSERT INTO "seats" VALUES(5,'sm-1',1,'bo@example.org','Bo','hdufk','human',NULL);
CREATE INDEX ix_games_status_deadline_at ON games (status, deadline_at);
CREATE INDEX ix_inbound_status_received_at ON inbound (status, received_at);
CREATE INDEX ix_outbox_status_next_attempt_at ON outbox (status, next_attempt_at);
CREATE INDEX ix_seats_secret ON seats (secret);
CREATE INDEX ix_queued_orders_game_id_status_position ON queued_orders (game_id, status, position);
COMMIT;
