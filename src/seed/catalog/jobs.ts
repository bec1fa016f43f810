import type { JobCatalog, JobTemplate } from './types.js';

type Range = readonly [number, number];

/** The numbers of one template: hours per helper, hourly rate in EUR, helpers, optional licence / remote shares. */
interface JobNumbers {
  hours: Range;
  rate: Range;
  helpers: Range;
  license?: number;
  remote?: number;
}

/** Builds a JobTemplate; keeps the catalogue compact (title and numbers on one line, then the sentences). */
function job(title: string, numbers: JobNumbers, sentences: readonly string[]): JobTemplate {
  const { hours, rate, helpers, license, remote } = numbers;
  return {
    title,
    sentences,
    hours,
    hourlyRateEur: rate,
    helpers,
    ...(license === undefined ? {} : { requiresLicense: license }),
    ...(remote === undefined ? {} : { remote }),
  };
}

export const JOB_CATALOG: JobCatalog = {
  GARDENING: [
    job('Hecke schneiden in {ort}', { hours: [2, 4], rate: [14, 18], helpers: [1, 1] }, [
      'Unsere Thujahecke ist etwa 25 Meter lang und 1,80 m hoch und muss dringend in Form geschnitten werden.',
      'Elektrische Heckenschere und Leiter sind vorhanden, Sie müssen nur Zeit und etwas Erfahrung mitbringen.',
      'Den Grünschnitt fahren wir danach selbst zum Wertstoffhof.',
      'Am liebsten an einem Samstagvormittag, Bezahlung bar direkt nach getaner Arbeit.',
    ]),
    job('Rasen mähen alle zwei Wochen, Reihenhausgarten in {ort}', { hours: [1, 2], rate: [14, 17], helpers: [1, 1] }, [
      'Wir suchen jemanden, der von Mai bis Oktober alle zwei Wochen unseren Rasen (ca. 150 m²) mäht.',
      'Ein Akku-Rasenmäher steht im Gartenhaus, das Schnittgut kommt auf den Kompost.',
      'Die Zeiten können Sie sich frei einteilen, wir sind tagsüber meist nicht zu Hause.',
      'Bezahlung bar oder per PayPal, gerne auch langfristig.',
    ]),
    job('Laub rechen und Gartenabfälle entsorgen', { hours: [3, 5], rate: [14, 18], helpers: [1, 2] }, [
      'Im Herbst fällt in unserem Garten jede Menge Laub von zwei großen Ahornbäumen an.',
      'Gesucht wird Hilfe beim Zusammenrechen und Einsacken, Laubsäcke und Rechen sind vorhanden.',
      'Die Säcke müssen anschließend zum Grünschnittplatz gefahren werden, ein Auto wäre daher super.',
      'Termin nach Absprache, gerne an einem Samstag im November.',
    ]),
    job('Beete umgraben und Frühjahrspflanzung in {ort}', { hours: [3, 6], rate: [15, 19], helpers: [1, 2] }, [
      'Im Vorgarten sollen zwei Beete (zusammen ca. 20 m²) umgegraben und von Unkraut befreit werden.',
      'Danach möchten wir Stauden und einige Sträucher pflanzen, die Pflanzen besorgen wir selbst.',
      'Spaten, Grabegabel und Schubkarre sind vorhanden.',
      'Etwas Gartenerfahrung wäre schön, die Arbeit ist körperlich recht anstrengend.',
    ]),
    job('Gartenhilfe für ältere Dame in {ort} gesucht', { hours: [2, 3], rate: [14, 16], helpers: [1, 1] }, [
      'Meine Mutter (84) wohnt allein in einem Haus mit Garten und schafft die Gartenarbeit nicht mehr.',
      'Gesucht wird Hilfe etwa zweimal im Monat: Rasen mähen, Unkraut jäten, Sträucher stutzen.',
      'Zuverlässigkeit und ein freundlicher Umgang sind uns wichtiger als Profi-Erfahrung.',
      'Bezahlung bar vor Ort, eine Tasse Kaffee gibt es gratis dazu.',
    ]),
    job('Obstbäume fachgerecht schneiden (3 Apfelbäume)', { hours: [2, 4], rate: [16, 22], helpers: [1, 1] }, [
      'Auf unserem Grundstück stehen drei ältere Apfelbäume, die seit Jahren nicht mehr geschnitten wurden.',
      'Wir suchen jemanden mit Erfahrung im Obstbaumschnitt, am besten im Februar oder März.',
      'Astschere, Säge und eine stabile Obstbaumleiter sind vorhanden.',
      'Das Schnittgut häckseln wir anschließend selbst.',
    ]),
    job('Gießhilfe während unseres Urlaubs im August', { hours: [0.5, 1], rate: [13, 16], helpers: [1, 1] }, [
      'Vom 3. bis 17. August sind wir verreist und brauchen jemanden, der Garten und Balkon gießt.',
      'Bei Hitze sollte jeden Abend gegossen werden, sonst reicht jeder zweite Tag.',
      'Es gibt eine Regentonne und einen Gartenschlauch, die Tomaten im Gewächshaus brauchen besonders viel Wasser.',
      'Die Schlüsselübergabe machen wir vorher bei uns in {ort}.',
    ]),
    job('Balkonkästen bepflanzen und Kübel winterfest machen', { hours: [1, 3], rate: [14, 17], helpers: [1, 1] }, [
      'Ich habe einen großen Südbalkon im 3. OG mit acht Balkonkästen und mehreren Kübelpflanzen.',
      'Im Frühjahr sollen die Kästen neu bepflanzt, im Herbst die Kübel mit Vlies eingepackt werden.',
      'Erde und Pflanzen kaufe ich selbst, Sie brauchen nur etwas grünen Daumen.',
    ]),
    job('Rollrasen verlegen, ca. 80 m², in {ort}', { hours: [4, 6], rate: [15, 20], helpers: [2, 3] }, [
      'Nach dem Hausbau soll der Garten endlich Rasen bekommen, der Rollrasen wird am Freitagmorgen geliefert.',
      'Der Boden ist bereits vorbereitet und planiert, es geht nur ums Verlegen, Andrücken und Wässern.',
      'Rollrasen muss am Liefertag verlegt werden, deshalb suchen wir zwei bis drei kräftige Helfer.',
      'Getränke und Mittagessen stellen wir, Bezahlung bar am Ende des Tages.',
    ]),
    job('Vertikutieren und Rasen nachsäen in {ort}', { hours: [2, 4], rate: [14, 18], helpers: [1, 1] }, [
      'Unser Rasen (ca. 200 m²) ist stark vermoost und soll im April vertikutiert werden.',
      'Einen Vertikutierer leihen wir aus, Rasensamen und Dünger sind bereits gekauft.',
      'Das ausgeharkte Moos muss zusammengerecht und in die Biotonne gefüllt werden.',
    ]),
  ],
  CLEANING: [
    job('Putzhilfe für 3-Zimmer-Wohnung in {ort}, alle 14 Tage', { hours: [3, 4], rate: [15, 18], helpers: [1, 1] }, [
      'Wir suchen eine zuverlässige Putzhilfe für unsere 85 m² große Wohnung im 2. OG mit Aufzug.',
      'Zu den Aufgaben gehören Bad, Küche, Staubsaugen und Böden wischen.',
      'Putzmittel und ein guter Staubsauger sind vorhanden.',
      'Gerne langfristig, eine Anmeldung über das Haushaltsscheckverfahren der Minijob-Zentrale ist möglich.',
    ]),
    job('Endreinigung nach Auszug, 2-Zimmer-Wohnung in {ort}', { hours: [4, 6], rate: [16, 20], helpers: [1, 2] }, [
      'Ende des Monats ziehe ich aus, die Wohnung (58 m²) muss übergabefertig gereinigt werden.',
      'Dazu gehören Küche inklusive Backofen, Bad mit Entkalken, Fenster und alle Böden.',
      'Die Übergabe an den Vermieter ist am 31. um 10 Uhr, geputzt werden sollte am Tag davor.',
      'Bezahlung bar oder per PayPal nach der Abnahme.',
    ]),
    job('Fenster putzen im Einfamilienhaus, zweimal im Jahr', { hours: [3, 5], rate: [15, 19], helpers: [1, 1] }, [
      'Unser Haus hat 14 Fenster, dazu zwei große Terrassentüren und drei Dachfenster.',
      'Rahmen und Fensterbänke sollen mitgereinigt werden.',
      'Eine Leiter und Abzieher sind vorhanden, gerne können Sie eigenes Material mitbringen.',
      'Geputzt wird im Frühjahr und im Herbst, den Termin legen wir gemeinsam fest.',
    ]),
    job('Treppenhausreinigung für Mehrfamilienhaus in {ort}', { hours: [1, 2], rate: [14, 17], helpers: [1, 1] }, [
      'Für unser Haus mit sechs Parteien suchen wir jemanden, der wöchentlich das Treppenhaus reinigt.',
      'Es geht um drei Etagen plus Kellertreppe: fegen, nass wischen und das Geländer abwischen.',
      'Putzmittel und Eimer stehen in der Waschküche bereit.',
      'Start wäre ab nächstem Monat, Bezahlung per Überweisung.',
    ]),
    job('Frühjahrsputz: Hilfe beim Großreinemachen gesucht', { hours: [4, 6], rate: [15, 18], helpers: [1, 2] }, [
      'Ich möchte meine Altbauwohnung (95 m², 4. OG ohne Aufzug) nach dem Winter gründlich reinigen lassen.',
      'Schränke auswischen, Fenster putzen, Lampen entstauben und die Küche entfetten.',
      'Die Arbeit kann auch auf zwei Termine verteilt werden.',
      'Material stelle ich, Bezahlung bar.',
    ]),
    job('Haushaltshilfe für Senior in {ort}, einmal pro Woche', { hours: [2, 3], rate: [14, 17], helpers: [1, 1] }, [
      'Mein Vater (79) braucht Unterstützung im Haushalt: Staubsaugen, Bad putzen, Wäsche waschen.',
      'Er freut sich auch über etwas Gesellschaft und ein kurzes Gespräch.',
      'Ein fester Tag wäre schön, etwa dienstags oder donnerstags vormittags.',
      'Die Bezahlung übernehmen wir als Familie per Überweisung.',
    ]),
    job('Keller entrümpeln und ausfegen, {ort}', { hours: [3, 5], rate: [15, 19], helpers: [1, 2] }, [
      'Unser Kellerabteil (ca. 12 m²) ist vollgestellt mit alten Möbeln, Farbeimern und Kartons.',
      'Alles soll sortiert, der Sperrmüll an die Straße gestellt und der Keller anschließend ausgefegt werden.',
      'Den Sperrmülltermin bei der Stadt haben wir schon angemeldet.',
      'Arbeitshandschuhe und Müllsäcke sind vorhanden.',
    ]),
    job('Reinigung nach Renovierung: Baustaub entfernen', { hours: [4, 6], rate: [16, 20], helpers: [1, 2] }, [
      'Nach dem Streichen und dem Verlegen von neuem Laminat liegt in der ganzen Wohnung feiner Baustaub.',
      'Die Wohnung hat 70 m², Fenster und Türrahmen haben einige Farbspritzer abbekommen.',
      'Ein Industriestaubsauger ist vorhanden.',
      'Die Reinigung sollte bis Ende nächster Woche erledigt sein.',
    ]),
    job('Ferienwohnung zwischen Gästewechseln reinigen, {ort}', { hours: [2, 3], rate: [15, 18], helpers: [1, 1] }, [
      'Für unsere kleine Ferienwohnung (45 m²) suchen wir eine Reinigungskraft für die Gästewechsel.',
      'Betten neu beziehen, Bad und Küche putzen, Müll rausbringen.',
      'Die Bettwäsche waschen wir selbst, der Schlüssel liegt im Schlüsseltresor.',
      'Etwa drei- bis viermal im Monat, meist samstags zwischen 10 und 15 Uhr.',
    ]),
    job('Bügelhilfe gesucht, ca. zwei Wäschekörbe pro Woche', { hours: [2, 3], rate: [13, 16], helpers: [1, 1] }, [
      'Bei uns sammeln sich jede Woche zwei Körbe Bügelwäsche an, vor allem Hemden und Blusen.',
      'Sie können bei uns bügeln oder die Wäsche mit nach Hause nehmen.',
      'Bügeleisen mit Dampfstation und Bügelbrett sind vorhanden.',
    ]),
  ],
  MOVING: [
    job('Umzugshelfer für 2-Zimmer-Wohnung in {ort} gesucht', { hours: [4, 6], rate: [16, 20], helpers: [2, 3] }, [
      'Am Samstag, den 14., ziehe ich von einer 2-Zimmer-Wohnung im 3. OG ohne Aufzug in eine EG-Wohnung.',
      'Den Transporter habe ich selbst gemietet, die Kartons sind bereits gepackt.',
      'Zu tragen sind vor allem Waschmaschine, Kühlschrank, Sofa, zwei Schränke und ca. 30 Kartons.',
      'Für Getränke und Pizza ist gesorgt, Bezahlung bar am Ende.',
    ]),
    job('Fahrer für Transporter gesucht (Klasse B)', { hours: [3, 5], rate: [18, 25], helpers: [1, 1], license: 0.9 }, [
      'Ich habe einen 3,5-t-Transporter gemietet, traue mir das Fahren aber nicht zu.',
      'Die Strecke ist kurz, von {ort} in die Karlsruher Innenstadt.',
      'Beim Ein- und Ausladen helfen Freunde mit, du müsstest nur fahren und ab und zu mit anpacken.',
      'Führerschein Klasse B und etwas Fahrpraxis mit größeren Fahrzeugen sind Voraussetzung.',
    ]),
    job('Waschmaschine in den Keller tragen, {ort}', { hours: [0.5, 1], rate: [15, 20], helpers: [2, 2] }, [
      'Unsere neue Waschmaschine steht im Hausflur und muss über eine enge Treppe in den Keller.',
      'Eine Sackkarre und Tragegurte sind vorhanden.',
      'Das dauert vermutlich nur eine halbe Stunde, ich bezahle trotzdem pauschal eine Stunde.',
      'Am liebsten heute Abend oder morgen nach 17 Uhr.',
    ]),
    job('Sofa abholen, Transporter gesucht', { hours: [1, 2], rate: [18, 25], helpers: [1, 2], license: 0.7 }, [
      'Ich habe ein gebrauchtes Ecksofa gekauft, das in {ort} im 1. OG abgeholt werden muss.',
      'Gesucht wird jemand mit Transporter oder großem Anhänger, der auch beim Tragen hilft.',
      'Das Sofa lässt sich zerlegen, die Teile sind jeweils ca. 2 m lang.',
      'Benzingeld zahle ich natürlich extra.',
    ]),
    job('Familienumzug in {ort}, Träger gesucht', { hours: [5, 8], rate: [17, 22], helpers: [3, 4], license: 0.3 }, [
      'Wir ziehen Ende des Monats als Familie aus einer 4-Zimmer-Wohnung (105 m²) im 2. OG aus.',
      'Ein 7,5-t-LKW ist gemietet, gesucht sind drei bis vier kräftige Helfer zum Tragen.',
      'Wer den Führerschein Klasse C1 hat und fahren könnte, bekommt einen Aufschlag.',
      'Start ist um 8 Uhr, Frühstück und Mittagessen gehen auf uns.',
    ]),
    job('Kleiderschrank abbauen und in neuer Wohnung aufbauen', { hours: [3, 5], rate: [18, 24], helpers: [1, 2] }, [
      'Es geht um einen großen PAX-Kleiderschrank (2,50 m breit) und ein Hochbett aus Kiefernholz.',
      'Abbau in der alten Wohnung in {ort}, Aufbau in der neuen, beide Wohnungen liegen im 1. OG.',
      'Akkuschrauber und Inbusschlüssel sind vorhanden, Erfahrung mit IKEA-Möbeln ist erwünscht.',
      'Den Transport dazwischen übernimmt ein Freund mit Transporter.',
    ]),
    job('Klavier transportieren innerhalb von {ort}', { hours: [1, 2], rate: [20, 25], helpers: [3, 4] }, [
      'Ein altes Schimmel-Klavier (ca. 230 kg) soll aus dem 1. OG ins Erdgeschoss des Nachbarhauses.',
      'Klaviergurte und ein Rollbrett sind vorhanden, es braucht aber vier kräftige Leute.',
      'Erfahrung mit schweren Lasten wäre gut, festes Schuhwerk ist Pflicht.',
    ]),
    job('Studentenumzug ins Wohnheim am KIT', { hours: [2, 3], rate: [15, 18], helpers: [1, 2], license: 0.5 }, [
      'Unsere Tochter zieht zum Semesterstart in ein Studentenwohnheim in der Nähe des KIT.',
      'Es sind nur ein Bett, ein Schreibtisch, ein Regal und etwa 15 Kartons.',
      'Wer einen Kombi oder kleinen Transporter hat, ist klar im Vorteil.',
      'Termin ist das erste Oktoberwochenende.',
    ]),
    job('Sperrmüll zum Wertstoffhof fahren, {ort}', { hours: [2, 3], rate: [16, 22], helpers: [1, 2], license: 0.8 }, [
      'Nach einer Haushaltsauflösung sind alte Matratzen, ein Lattenrost und mehrere Regale übrig.',
      'Gesucht wird jemand mit Anhänger oder Transporter, der alles zum Wertstoffhof bringt.',
      'Eventuelle Gebühren am Wertstoffhof übernehme ich.',
      'Die Sachen stehen schon unten in der Garage, Tragen über Treppen ist nicht nötig.',
    ]),
    job('Seniorenumzug ins betreute Wohnen in {ort}', { hours: [4, 6], rate: [17, 22], helpers: [2, 3] }, [
      'Meine Großmutter zieht aus ihrer 3-Zimmer-Wohnung in ein kleines Apartment im betreuten Wohnen.',
      'Nur ein Teil der Möbel kommt mit, der Rest wird gespendet oder entsorgt.',
      'Neben dem Tragen sind etwas Geduld und Einfühlungsvermögen gefragt.',
      'Transporter und Fahrer sind bereits organisiert.',
    ]),
  ],
  TECH_REPAIR: [
    job('WLAN-Router einrichten und Drucker verbinden', { hours: [1, 2], rate: [25, 35], helpers: [1, 1] }, [
      'Ich habe von meinem Anbieter eine neue FRITZ!Box bekommen und schaffe die Einrichtung nicht allein.',
      'Außerdem soll der Drucker (HP OfficeJet) per WLAN mit Laptop und Handy verbunden werden.',
      'Das WLAN reicht bisher nicht ins Arbeitszimmer im Dachgeschoss, vielleicht braucht es einen Repeater.',
      'Bezahlung bar oder per PayPal, gerne diese Woche abends.',
    ]),
    job('Laptop langsam, Hilfe bei Datensicherung', { hours: [1, 3], rate: [25, 40], helpers: [1, 1], remote: 0.7 }, [
      'Mein Laptop ist extrem langsam geworden, vor dem Neuaufsetzen möchte ich alle Fotos sichern.',
      'Eine externe Festplatte habe ich schon gekauft.',
      'Fernwartung per TeamViewer oder AnyDesk ist für mich in Ordnung.',
      'Ich bin kein Technikprofi, bitte mit etwas Geduld erklären.',
    ]),
    job('Deckenleuchten montieren in {ort}', { hours: [1, 2], rate: [25, 40], helpers: [1, 1], license: 0.3 }, [
      'In der neuen Wohnung hängen nur Kabel aus der Decke, es sollen vier Deckenleuchten montiert werden.',
      'Die Lampen sind vorhanden, Bohrmaschine und Leiter auch.',
      'Bevorzugt jemand mit elektrotechnischer Ausbildung, Sicherheit geht vor.',
      'Die Wohnung liegt im 2. OG eines Altbaus mit hohen Decken (3,20 m).',
    ]),
    job('IKEA-Küche aufbauen in {ort}', { hours: [6, 10], rate: [22, 35], helpers: [1, 2], license: 0.2 }, [
      'Unsere neue IKEA-Küche (Zeile 3,20 m plus Hochschrank) steht noch in Kartons in der Wohnung.',
      'Gesucht wird jemand mit Erfahrung im Küchenaufbau, inklusive Zuschnitt der Arbeitsplatte.',
      'Den Elektroanschluss des Herds macht ein Elektriker separat.',
      'Werkzeug bitte möglichst mitbringen, Bezahlung nach Stunden oder pauschal.',
    ]),
    job('Handy-Display tauschen (iPhone 12)', { hours: [1, 1.5], rate: [25, 40], helpers: [1, 1] }, [
      'Das Display meines iPhone 12 ist gesprungen, der Touchscreen funktioniert aber noch.',
      'Ein Ersatzdisplay kann ich bestellen, oder du bringst eines mit.',
      'Wichtig ist, dass Face ID danach noch funktioniert.',
    ]),
    job('Fahrrad reparieren: Schaltung und Bremsen einstellen', { hours: [1, 2], rate: [20, 28], helpers: [1, 1] }, [
      'Bei meinem Trekkingrad springt die Kettenschaltung und die Scheibenbremsen schleifen.',
      'Vielleicht muss auch die Kette gewechselt werden.',
      'Ersatzteile bezahle ich natürlich separat.',
      'Das Rad kann ich vorbeibringen, wenn du in {ort} oder in der Nähe wohnst.',
    ]),
    job('Computerhilfe für Senioren in {ort}', { hours: [1, 2], rate: [20, 28], helpers: [1, 1], remote: 0.3 }, [
      'Meine Eltern (beide über 75) haben ein neues Tablet und brauchen Hilfe bei E-Mail und WhatsApp.',
      'Am besten wären zwei, drei Termine vor Ort mit viel Geduld.',
      'Später könnten Fragen auch per Telefon oder Fernwartung geklärt werden.',
      'Gerne auch Videotelefonie mit den Enkeln einrichten.',
    ]),
    job('Vereins-Website (WordPress) aktualisieren', { hours: [3, 6], rate: [30, 45], helpers: [1, 1], remote: 0.9 }, [
      'Unser Sportverein hat eine WordPress-Seite, die seit Jahren nicht aktualisiert wurde.',
      'Es geht um Updates, ein neues Theme und ein funktionierendes Kontaktformular.',
      'Die Arbeit kann komplett von zu Hause erledigt werden.',
      'Abrechnung per Rechnung oder nach Absprache als Ehrenamtspauschale.',
    ]),
    job('Wasserhahn tauschen und Abfluss reparieren, {ort}', { hours: [1, 2], rate: [25, 40], helpers: [1, 1] }, [
      'Die Küchenarmatur tropft und soll gegen eine neue, bereits gekaufte getauscht werden.',
      'Außerdem läuft der Abfluss im Waschbecken im Bad nur noch sehr langsam ab.',
      'Die Eckventile sind vorhanden, sitzen aber etwas fest.',
    ]),
    job('Balkonkraftwerk montieren und anmelden', { hours: [2, 4], rate: [30, 45], helpers: [1, 2], license: 0.4 }, [
      'Ich habe ein Balkonkraftwerk mit zwei Modulen (je 430 W) und Wechselrichter gekauft.',
      'Die Module sollen sicher am Balkongeländer im 1. OG befestigt werden.',
      'Hilfe bei der Anmeldung im Marktstammdatenregister wäre auch super.',
      'Eine Außensteckdose am Balkon ist vorhanden.',
    ]),
  ],
  CHILDCARE: [
    job('Babysitter für Samstagabend in {ort} gesucht', { hours: [3, 5], rate: [13, 16], helpers: [1, 1] }, [
      'Wir suchen für unsere Kinder (3 und 6 Jahre) einen Babysitter für gelegentliche Samstagabende.',
      'Die Kinder schlafen meist ab 20 Uhr, vorher wird noch gemeinsam gegessen und vorgelesen.',
      'Erfahrung mit Kleinkindern und ein Erste-Hilfe-Kurs am Kind sind uns wichtig.',
      'Nach 23 Uhr fahren wir dich gerne nach Hause.',
    ]),
    job('Kita-Abholung zweimal pro Woche, {ort}', { hours: [1.5, 2.5], rate: [14, 17], helpers: [1, 1] }, [
      'Wir suchen jemanden, der unseren Sohn Paul (4) dienstags und donnerstags um 15 Uhr von der Kita abholt.',
      'Danach bis zu unserer Rückkehr gegen 17:30 Uhr auf dem Spielplatz oder bei uns zu Hause betreuen.',
      'Ein erweitertes Führungszeugnis setzen wir voraus.',
      'Langfristige Zusammenarbeit gewünscht, Bezahlung per Überweisung.',
    ]),
    job('Mathe-Nachhilfe, 7. Klasse Gymnasium', { hours: [1, 1.5], rate: [15, 20], helpers: [1, 1], remote: 0.3 }, [
      'Unsere Tochter Lea ist in der 7. Klasse und hat Schwierigkeiten mit Bruchrechnung und Gleichungen.',
      'Gesucht wird Nachhilfe einmal pro Woche, gerne von Studierenden des KIT.',
      'Der Unterricht kann bei uns zu Hause oder online stattfinden.',
    ]),
    job('Ferienbetreuung für zwei Grundschulkinder in {ort}', { hours: [6, 8], rate: [14, 17], helpers: [1, 1] }, [
      'In den Sommerferien fehlen uns zwei Wochen Betreuung für unsere Kinder (7 und 9 Jahre).',
      'Betreut wird von etwa 8 bis 16 Uhr, gerne mit Ausflügen in den Schlossgarten, ins Freibad oder in den Zoo.',
      'Eintritte und Verpflegung zahlen wir natürlich.',
      'Zeitraum ist vom 4. bis 15. August.',
    ]),
    job('Babysitterin für Baby (8 Monate) an zwei Vormittagen', { hours: [3, 4], rate: [14, 17], helpers: [1, 1] }, [
      'Ich steige wieder in Teilzeit ein und suche für zwei Vormittage pro Woche Betreuung für meine Tochter Mia.',
      'Sie isst Brei, schläft gegen 10 Uhr und liebt Spaziergänge im Kinderwagen.',
      'Erfahrung mit Babys ist Voraussetzung, Referenzen wären toll.',
      'Wir wohnen in {ort}, gut erreichbar mit der Straßenbahn.',
    ]),
    job('Leihoma oder Leihopa in {ort} gesucht', { hours: [2, 4], rate: [13, 15], helpers: [1, 1] }, [
      'Unsere Großeltern wohnen leider weit weg, deshalb suchen wir eine liebevolle Leihoma oder einen Leihopa.',
      'Etwa einmal pro Woche nachmittags Zeit mit unseren Kindern (2 und 5) verbringen: spielen, vorlesen, backen.',
      'Eine langfristige, herzliche Beziehung ist uns wichtiger als pädagogische Erfahrung.',
    ]),
    job('Schulweg-Begleitung morgens, {ort}', { hours: [0.5, 1], rate: [14, 16], helpers: [1, 1] }, [
      'Unser Sohn (1. Klasse) soll morgens um 7:30 Uhr zur Grundschule begleitet werden, Fußweg ca. 15 Minuten.',
      'Wir müssen beide früh zur Arbeit und schaffen es zeitlich nicht.',
      'Montags bis freitags, außer in den Schulferien.',
    ]),
    job('Kinderbetreuung bei unserer Hochzeitsfeier gesucht', { hours: [5, 7], rate: [15, 20], helpers: [1, 2] }, [
      'Auf unserer Hochzeit am 20. Juni werden etwa acht Kinder zwischen 2 und 10 Jahren dabei sein.',
      'Wir suchen ein bis zwei Betreuer, die sich von 15 bis 21 Uhr um die Kinder kümmern.',
      'Ein eigener Raum mit Spiel- und Malsachen ist vorhanden, Essen gibt es natürlich auch für euch.',
      'Gefeiert wird in einem Gasthaus in {ort}.',
    ]),
    job('Nachmittags Kinder-Fahrdienst in {ort}', { hours: [2, 3], rate: [14, 18], helpers: [1, 1], license: 0.8 }, [
      'Unsere Zwillinge (10) müssen montags und mittwochs zum Schwimmtraining und zur Musikschule gefahren werden.',
      'Kindersitze sind vorhanden, gefahren wird mit unserem Auto oder mit deinem gegen Kilometergeld.',
      'Führerschein Klasse B und eine sichere Fahrweise sind Voraussetzung.',
    ]),
    job('Englisch-Nachhilfe für Realschüler', { hours: [1, 1.5], rate: [15, 20], helpers: [1, 1], remote: 0.4 }, [
      'Jonas schreibt im Frühjahr die Abschlussprüfungen und braucht Unterstützung in Englisch.',
      'Schwerpunkte sind Grammatik, Textverständnis und das Schreiben von kurzen Texten.',
      'Einmal pro Woche 90 Minuten, gerne auch online per Zoom.',
    ]),
  ],
  PETCARE: [
    job('Gassi-Service für Labrador in {ort}, 3x pro Woche', { hours: [1, 1], rate: [13, 16], helpers: [1, 1] }, [
      'Unser Labrador Balu (5 Jahre) braucht mittags eine Runde, während wir im Büro sind.',
      'Er ist freundlich, gut erzogen und läuft an der Leine, nur bei Katzen wird er neugierig.',
      'Montag, Mittwoch und Freitag zwischen 12 und 14 Uhr, jeweils ca. eine Stunde.',
      'Den Schlüssel übergeben wir nach einem gemeinsamen Kennenlernspaziergang.',
    ]),
    job('Katzen füttern während des Urlaubs, {ort}', { hours: [0.5, 1], rate: [13, 16], helpers: [1, 1] }, [
      'Vom 10. bis 24. Juli sind wir verreist und suchen jemanden für unsere zwei Katzen Mimi und Felix.',
      'Einmal täglich füttern, frisches Wasser geben und das Katzenklo sauber machen.',
      'Beide sind Wohnungskatzen und freuen sich über ein paar Streicheleinheiten.',
      'Bezahlung pro Besuch, gerne per PayPal.',
    ]),
    job('Hundesitter für ein Wochenende im September', { hours: [4, 8], rate: [13, 15], helpers: [1, 1] }, [
      'Wir sind vom 5. bis 7. September auf einer Hochzeit und können unsere Beagle-Hündin Lotte nicht mitnehmen.',
      'Ideal wäre jemand, der Lotte bei sich aufnimmt oder mehrmals täglich zu uns nach {ort} kommt.',
      'Sie ist verträglich mit anderen Hunden, bleibt aber nicht gern lange allein.',
      'Futter, Leine und Körbchen bringen wir mit.',
    ]),
    job('Kaninchen und Meerschweinchen versorgen, {ort}', { hours: [0.5, 1], rate: [13, 15], helpers: [1, 1] }, [
      'Während unseres Urlaubs brauchen zwei Kaninchen und drei Meerschweinchen im Gartengehege Versorgung.',
      'Täglich frisches Heu, Gemüse und Wasser, alle drei Tage das Gehege ausmisten.',
      'Trockenfutter ist vorbereitet, frisches Gemüse bitte unterwegs kaufen, die Kosten erstatte ich.',
    ]),
    job('Fahrt mit Hund zum Tierarzt gesucht', { hours: [1, 2], rate: [15, 20], helpers: [1, 1], license: 0.9 }, [
      'Unser Schäferhund-Mix Rocky hat am Donnerstag um 10 Uhr einen Termin in der Tierklinik.',
      'Ich bin nach einer Operation selbst nicht fahrtüchtig und suche jemanden mit Auto.',
      'Rocky wiegt 35 kg, unsere Hundebox passt in einen Kombi.',
      'Ich fahre natürlich mit und kümmere mich vor Ort um alles.',
    ]),
    job('Aquarium während des Urlaubs betreuen', { hours: [0.5, 1], rate: [13, 15], helpers: [1, 1] }, [
      'Wir haben ein 240-Liter-Aquarium mit Guppys, Neonsalmlern und Welsen.',
      'Jeden zweiten Tag füttern und kurz nach Technik und Wassertemperatur schauen.',
      'Ich erkläre alles vorher in Ruhe, es gibt auch eine Checkliste.',
      'Wir wohnen in {ort}, Zeitraum sind zwei Wochen in den Pfingstferien.',
    ]),
    job('Welpe tagsüber betreuen, {ort}', { hours: [3, 5], rate: [13, 16], helpers: [1, 1] }, [
      'Unser Golden-Retriever-Welpe Emma (4 Monate) darf noch nicht lange allein bleiben.',
      'Gesucht wird jemand, der an zwei Tagen pro Woche mittags für drei bis vier Stunden vorbeikommt.',
      'Kleine Spaziergänge, spielen und Stubenreinheit üben.',
      'Hundeerfahrung ist wichtig, gerne auch jemand aus der direkten Nachbarschaft.',
    ]),
    job('Gassigeher für Dackel einer Seniorin in {ort}', { hours: [0.5, 1], rate: [13, 15], helpers: [1, 1] }, [
      'Meine Nachbarin (86) kann mit ihrem Dackel Waldi keine langen Runden mehr laufen.',
      'Gesucht wird jemand, der täglich am späten Nachmittag eine halbe Stunde mit ihm spazieren geht.',
      'Waldi ist gemütlich, verträglich und schon etwas älter.',
    ]),
    job('Hühner versorgen am Wochenende, {ort}', { hours: [0.5, 1], rate: [13, 15], helpers: [1, 1] }, [
      'Wir haben sechs Hühner im Garten und sind im Mai an zwei Wochenenden nicht da.',
      'Morgens den Stall öffnen, füttern, Eier einsammeln und abends den Stall wieder schließen.',
      'Die Eier dürfen Sie natürlich behalten.',
    ]),
    job('Lange Runde mit Border Collie, samstags', { hours: [2, 3], rate: [13, 16], helpers: [1, 1] }, [
      'Unser Border Collie Finn (3) braucht mehr Auslauf, als wir ihm momentan bieten können.',
      'Wir suchen jemanden, der samstags mit ihm eine längere Runde im Hardtwald oder am Turmberg läuft.',
      'Er ist sportlich, gehorcht gut und kennt den Rückruf.',
    ]),
  ],
  SHOPPING: [
    job('Wocheneinkauf für Seniorin in {ort}', { hours: [1, 2], rate: [13, 16], helpers: [1, 1] }, [
      'Meine Oma (88) kann nicht mehr allein einkaufen gehen und wir wohnen zu weit weg.',
      'Einmal pro Woche den Einkauf nach Liste im Supermarkt erledigen und in die Wohnung im 2. OG bringen.',
      'Das Einkaufsgeld wird vorher bar übergeben oder per Überweisung erstattet.',
      'Über einen kurzen Plausch freut sie sich sehr.',
    ]),
    job('Apothekengänge und Rezepte abholen, {ort}', { hours: [0.5, 1], rate: [13, 16], helpers: [1, 1] }, [
      'Ich bin nach einer Hüft-OP noch einige Wochen eingeschränkt und kann nicht selbst zur Apotheke.',
      'Etwa einmal pro Woche müssen Rezepte in der Hausarztpraxis abgeholt und Medikamente besorgt werden.',
      'Zuzahlungen erstatte ich sofort bar.',
    ]),
    job('Getränkekisten in den 4. Stock tragen', { hours: [0.5, 1], rate: [14, 18], helpers: [1, 1] }, [
      'Ich wohne im 4. OG ohne Aufzug und brauche alle zwei Wochen Hilfe mit den Getränkekisten.',
      'Es geht um vier Kisten Wasser, die beim Getränkemarkt um die Ecke abgeholt werden.',
      'Mit Auto oder Lastenrad ideal, zur Not geht es auch mit der Sackkarre.',
    ]),
    job('Einkaufshilfe nach Knie-OP für drei Wochen', { hours: [1, 2], rate: [13, 16], helpers: [1, 1] }, [
      'Nach meiner Knie-OP darf ich drei Wochen lang nichts Schweres tragen.',
      'Gesucht wird jemand, der zweimal pro Woche Lebensmittel einkauft und vorbeibringt.',
      'Die Einkaufsliste schicke ich per WhatsApp, Abrechnung nach Kassenbon.',
      'Ich wohne in {ort}, Supermärkte sind fußläufig erreichbar.',
    ]),
    job('IKEA-Bestellung abholen und liefern', { hours: [2, 3], rate: [15, 20], helpers: [1, 1], license: 0.9 }, [
      'Bei IKEA Karlsruhe liegt eine Bestellung mit einem Regal und einigen Kleinteilen zur Abholung bereit.',
      'Gesucht wird jemand mit Kombi oder Transporter, der die Sachen holt und zu mir nach {ort} bringt.',
      'Die Pakete sind nicht sehr schwer, das längste ist ca. 2 m lang.',
      'Spritkosten zahle ich zusätzlich zum Stundenlohn.',
    ]),
    job('Besorgungen für Familie mit Neugeborenem, {ort}', { hours: [1, 2], rate: [13, 16], helpers: [1, 1] }, [
      'Unser Baby ist gerade zwei Wochen alt und wir kommen kaum aus dem Haus.',
      'Gesucht wird Hilfe bei Einkäufen, Drogerie-Besorgungen und dem Gang zur Post.',
      'Zwei- bis dreimal pro Woche, am liebsten vormittags.',
    ]),
    job('Einkauf vom Wochenmarkt am Gutenbergplatz', { hours: [1, 1.5], rate: [13, 16], helpers: [1, 1] }, [
      'Jeden Samstagvormittag sollen Obst, Gemüse und Käse vom Wochenmarkt am Gutenbergplatz besorgt werden.',
      'Die Einkaufsliste kommt am Freitag per WhatsApp.',
      'Geliefert wird zu mir in die Weststadt, ein Fahrradanhänger ist von Vorteil.',
    ]),
    job('Paket abholen und Retouren zur Post bringen', { hours: [0.5, 1], rate: [13, 15], helpers: [1, 1] }, [
      'Ich bin tagsüber arbeiten und schaffe es nicht rechtzeitig zur Postfiliale.',
      'Zwei Retouren müssen abgegeben und ein Paket aus der Filiale abgeholt werden.',
      'Benachrichtigungskarte und Vollmacht lege ich bereit.',
    ]),
    job('Einkaufsbegleitung für Rollstuhlfahrer in {ort}', { hours: [2, 3], rate: [14, 17], helpers: [1, 1] }, [
      'Mein Mann sitzt im Rollstuhl und geht gern selbst einkaufen, braucht aber Begleitung.',
      'Einmal pro Woche in die Innenstadt oder ins Einkaufszentrum Ettlinger Tor.',
      'Sie schieben den Rollstuhl und helfen beim Tragen der Einkäufe.',
    ]),
    job('Tierfutter vom Fachmarkt abholen', { hours: [1, 2], rate: [14, 18], helpers: [1, 1], license: 0.7 }, [
      'Für unsere zwei Hunde kaufe ich monatlich große Futtersäcke (je 15 kg) im Fachmarkt.',
      'Da mein Auto gerade in der Werkstatt ist, suche ich jemanden, der den Einkauf übernimmt.',
      'Die Ware ist vorbestellt und bezahlt, sie muss nur abgeholt und zu mir nach {ort} gebracht werden.',
    ]),
  ],
  EVENTS: [
    job('Helfer für Gartenparty am Samstag in {ort}', { hours: [4, 6], rate: [15, 18], helpers: [2, 3] }, [
      'Wir feiern am Samstag unseren 40. Geburtstag mit ca. 50 Gästen im Garten.',
      'Gesucht werden Helfer für den Aufbau von Zelt und Bierbänken, den Getränkeausschank und das Abräumen.',
      'Los geht es um 14 Uhr, Ende gegen 23 Uhr, die Schichten teilen wir auf.',
      'Verpflegung ist inklusive, Bezahlung bar am Abend.',
    ]),
    job('Servicekräfte für Hochzeit mit 80 Gästen gesucht', { hours: [6, 8], rate: [16, 22], helpers: [2, 4] }, [
      'Für unsere Hochzeit in einer Scheune bei {ort} suchen wir Servicepersonal.',
      'Aufgaben: Getränke servieren, Buffet auffüllen und Geschirr abräumen.',
      'Gastronomie-Erfahrung ist gern gesehen, Kleidung: schwarze Hose und weißes Hemd.',
      'Die Feier ist am Samstag, den 13. Juni, von ca. 16 bis 24 Uhr.',
    ]),
    job('Partyzelt aufbauen und abbauen, {ort}', { hours: [2, 3], rate: [15, 20], helpers: [2, 3] }, [
      'Wir haben ein Partyzelt (6 x 12 m) gemietet, das am Freitagnachmittag aufgebaut werden muss.',
      'Der Abbau ist am Sonntagvormittag.',
      'Aufbauanleitung und Werkzeug liegen bei, es braucht aber mindestens drei Leute.',
    ]),
    job('Hobby-DJ für 30. Geburtstag gesucht', { hours: [4, 6], rate: [20, 25], helpers: [1, 1] }, [
      'Wir suchen einen Hobby-DJ mit eigener Anlage für eine Feier mit ca. 60 Gästen.',
      'Musikwunsch: 90er, 2000er, aktuelle Charts und zu später Stunde etwas Schlager.',
      'Gefeiert wird in einem Vereinsheim in {ort}, Strom und Tische sind vorhanden.',
      'Gage nach Absprache, gerne als Pauschale.',
    ]),
    job('Fotograf für Taufe gesucht, {ort}', { hours: [2, 3], rate: [20, 25], helpers: [1, 1] }, [
      'Für die Taufe unserer Tochter suchen wir jemanden, der Gottesdienst und Kaffeetafel fotografiert.',
      'Eine eigene Kamera und etwas Erfahrung mit Personenfotos sind Voraussetzung.',
      'Die bearbeiteten Bilder hätten wir gerne innerhalb von zwei Wochen digital.',
    ]),
    job('Spülhilfe für Vereinsfest, {ort}', { hours: [4, 5], rate: [14, 16], helpers: [2, 4] }, [
      'Beim Sommerfest unseres Kleingartenvereins fällt eine große Menge Geschirr an.',
      'Gesucht werden Helfer, die in der Vereinsküche spülen und abtrocknen.',
      'Die Spülmaschine schafft das leider nicht allein, Schürzen stellen wir.',
      'Essen und Getränke sind für alle Helfer frei.',
    ]),
    job('Auf- und Abbau beim Hofflohmarkt in {ort}', { hours: [3, 4], rate: [15, 17], helpers: [2, 3] }, [
      'Beim Hofflohmarkt in unserer Straße müssen Tische, Pavillons und Schilder aufgebaut werden.',
      'Aufbau ab 7 Uhr morgens, Abbau ab 16 Uhr.',
      'Die Pavillons stehen im Keller eines Nachbarn und müssen getragen werden.',
    ]),
    job('Kinderschminken beim Straßenfest in {ort}', { hours: [3, 4], rate: [18, 25], helpers: [1, 2] }, [
      'Beim Straßenfest unserer Nachbarschaft wünschen sich die Kinder eine Schminkstation.',
      'Schminkfarben auf Wasserbasis bringen Sie bitte mit, Tisch und Stühle stellen wir.',
      'Erwartet werden etwa 30 bis 40 Kinder, der Nachmittag geht von 14 bis 18 Uhr.',
    ]),
    job('Barkeeper für private Silvesterparty gesucht', { hours: [5, 7], rate: [20, 25], helpers: [1, 2] }, [
      'Für unsere Silvesterparty mit ca. 40 Gästen suchen wir jemanden, der Cocktails und Longdrinks mixt.',
      'Zutaten, Eis und Gläser besorgen wir nach deiner Einkaufsliste.',
      'Arbeitszeit ist von 20 bis etwa 2 Uhr, danach Taxi auf unsere Kosten.',
    ]),
    job('Getränkeausschank beim Hoffest, {ort}', { hours: [4, 6], rate: [15, 18], helpers: [2, 4] }, [
      'Unser Weingut veranstaltet ein Hoffest und sucht Aushilfen für den Ausschank.',
      'Ausgeschenkt werden Wein, Saftschorle und Bier, kassiert wird mit Kartenlesegerät.',
      'Mindestalter 18 Jahre, eine kurze Einweisung gibt es vor Ort.',
      'Gearbeitet wird in Schichten am Samstag und Sonntag.',
    ]),
  ],
  BORROWING: [
    job('Suche Anhänger für Samstag zum Leihen', { hours: [0.5, 1], rate: [15, 25], helpers: [1, 1], license: 0.9 }, [
      'Für eine Fahrt zum Wertstoffhof brauche ich am Samstag für ein paar Stunden einen PKW-Anhänger.',
      'Mein Auto hat eine 13-polige Steckdose, einen Adapter auf 7-polig habe ich.',
      'Ich wohne in {ort}, hole den Anhänger ab und bringe ihn besenrein zurück.',
      'Leihgebühr und Kaution nach Absprache.',
    ]),
    job('Bohrmaschine für ein paar Löcher ausleihen, {ort}', { hours: [0.5, 1], rate: [8, 12], helpers: [1, 1] }, [
      'Ich muss ein paar Löcher für Gardinenstangen bohren und will dafür keine Bohrmaschine kaufen.',
      'Eine Schlagbohrfunktion wäre gut, die Wände sind teilweise aus Beton.',
      'Ich bringe sie am selben Abend zurück, gerne mit einer Flasche Wein als Dankeschön.',
    ]),
    job('Leiter (mind. 3 m) für einen Tag gesucht', { hours: [0.5, 1], rate: [8, 12], helpers: [1, 1] }, [
      'Ich möchte die Dachrinne an unserem Gartenhaus reinigen und brauche dafür eine stabile Leiter.',
      'Sie sollte mindestens drei Meter hoch sein, eine Mehrzweckleiter wäre perfekt.',
      'Abholung und Rückgabe am selben Tag, ich wohne in {ort}.',
    ]),
    job('Suche Kinderreisebett fürs Wochenende, {ort}', { hours: [0.5, 1], rate: [8, 12], helpers: [1, 1] }, [
      'Am Wochenende kommen Freunde mit ihrem Baby zu Besuch und wir haben kein Reisebett.',
      'Eine Matratze dazu wäre super, Bettwäsche haben wir selbst.',
      'Abholung am Freitagabend, Rückgabe am Sonntagabend.',
    ]),
    job('Raclette-Set für Silvester ausleihen', { hours: [0.5, 1], rate: [8, 12], helpers: [1, 1] }, [
      'Wir feiern Silvester zu acht und suchen ein Raclette für mindestens acht Personen.',
      'Gerne mit heißem Stein oder Grillplatte, Pfännchen und Schieber sollten dabei sein.',
      'Wir geben es am 1. oder 2. Januar gereinigt zurück.',
    ]),
    job('Zelt und Schlafsäcke für Festivalwochenende gesucht', { hours: [0.5, 1], rate: [10, 15], helpers: [1, 1] }, [
      'Wir fahren zu dritt zum Southside-Festival und suchen ein Zelt für drei Personen und zwei Schlafsäcke.',
      'Das Zelt sollte dicht sein, der Rest darf gerne Gebrauchsspuren haben.',
      'Wir bringen alles getrocknet und gereinigt zurück, versprochen.',
    ]),
    job('Dachbox für Skiurlaub gesucht, {ort}', { hours: [0.5, 1], rate: [12, 20], helpers: [1, 1] }, [
      'Wir fahren in den Faschingsferien in die Alpen und brauchen eine Dachbox mit mindestens 400 Litern.',
      'Grundträger für unseren VW Touran sind vorhanden.',
      'Der Zeitraum ist etwa eine Woche Mitte Februar.',
      'Beim Montieren helfe ich gern mit, Kaution ist kein Problem.',
    ]),
    job('Suche Beamer für Filmabend im Garten, {ort}', { hours: [0.5, 1], rate: [10, 15], helpers: [1, 1] }, [
      'Für einen Filmabend mit Nachbarn im Garten suchen wir einen Beamer mit HDMI-Anschluss.',
      'Eine Leinwand haben wir nicht, eine weiße Hauswand tut es aber auch.',
      'Rückgabe am nächsten Vormittag.',
    ]),
    job('Hochdruckreiniger für Terrasse gesucht, {ort}', { hours: [0.5, 1], rate: [10, 15], helpers: [1, 1] }, [
      'Unsere Terrasse aus Betonplatten (ca. 30 m²) ist grün vom Winter und soll gereinigt werden.',
      'Ideal wäre ein Kärcher mit Flächenreiniger-Aufsatz.',
      'Ich brauche ihn für einen Tag und bringe ihn sauber zurück.',
    ]),
    job('Suche zwei Bierzeltgarnituren für Geburtstag', { hours: [0.5, 1], rate: [10, 15], helpers: [1, 1] }, [
      'Für den Geburtstag meines Vaters brauche ich zwei Bierzeltgarnituren (Tisch plus zwei Bänke).',
      'Ich kann sie mit einem Kombi abholen, der Transport ist also kein Problem.',
      'Zeitraum wäre von Freitagabend bis Sonntag.',
      'Ich wohne in {ort}, gerne auch aus der Umgebung.',
    ]),
  ],
  OTHER: [
    job('Hilfe bei Behördenformularen und Anträgen', { hours: [1, 2], rate: [15, 20], helpers: [1, 1] }, [
      'Ich brauche Unterstützung beim Ausfüllen von Anträgen für Wohngeld und die Rentenversicherung.',
      'Deutsch ist nicht meine Muttersprache, die Formulare sind für mich schwer zu verstehen.',
      'Treffen gerne bei mir zu Hause in {ort} oder in einem Café.',
    ]),
    job('Deutsch im Gespräch üben, wöchentlich', { hours: [1, 1.5], rate: [15, 20], helpers: [1, 1], remote: 0.5 }, [
      'Ich lebe seit einem Jahr in Karlsruhe und möchte mein Deutsch im Alltag verbessern.',
      'Gesucht wird jemand für lockere Gespräche, gerne bei einem Spaziergang oder Kaffee.',
      'Mein Niveau ist etwa B1, Grammatikunterricht brauche ich nicht.',
    ]),
    job('Alte Dias und Fotos digitalisieren', { hours: [3, 6], rate: [15, 20], helpers: [1, 1], remote: 0.6 }, [
      'Aus dem Nachlass meiner Eltern habe ich etwa 800 Dias und mehrere Fotoalben.',
      'Sie sollen eingescannt und nach Jahren sortiert in Ordnern abgelegt werden.',
      'Einen Diascanner kann ich stellen, die Arbeit kann auch bei Ihnen zu Hause erfolgen.',
    ]),
    job('Begleitung zum Arzttermin in {ort}', { hours: [2, 3], rate: [14, 17], helpers: [1, 1] }, [
      'Meine Mutter (82) hat nächste Woche einen Termin beim Augenarzt und darf danach nicht Auto fahren.',
      'Gesucht wird jemand, der sie mit Bus und Bahn begleitet und wieder nach Hause bringt.',
      'Die Wartezeit kann etwas länger dauern, die Fahrkarten zahlen wir.',
    ]),
    job('Hilfe beim Verkaufen auf Kleinanzeigen', { hours: [2, 4], rate: [15, 20], helpers: [1, 1] }, [
      'Nach einer Haushaltsauflösung möchte ich Möbel, Geschirr und Bücher online verkaufen.',
      'Gesucht wird Hilfe beim Fotografieren, Anzeigenschreiben und Beantworten der Nachrichten.',
      'Gerne auch gegen Provision statt Stundenlohn.',
    ]),
    job('Gitarrenunterricht für Anfänger in {ort}', { hours: [1, 1], rate: [20, 30], helpers: [1, 1] }, [
      'Ich bin 45 und möchte endlich Gitarre spielen lernen, eine Westerngitarre habe ich schon.',
      'Einmal pro Woche eine Stunde, gerne bei mir oder bei Ihnen.',
      'Ziel sind Lagerfeuerlieder und ein paar einfache Songs.',
    ]),
    job('Gesellschaft für Senior: Spaziergänge und Gespräche', { hours: [2, 3], rate: [13, 16], helpers: [1, 1] }, [
      'Mein Großvater (90) lebt allein und freut sich über regelmäßigen Besuch.',
      'Gemeinsame Spaziergänge im Park, Schach spielen oder einfach Zeitung lesen und reden.',
      'Zweimal pro Woche nachmittags, er wohnt in {ort}.',
    ]),
    job('Winterdienst: Gehweg räumen und streuen, {ort}', { hours: [0.5, 1], rate: [15, 20], helpers: [1, 1] }, [
      'Der Gehweg vor unserem Haus (ca. 20 m) muss bei Schnee und Glätte frühmorgens geräumt werden.',
      'Schneeschieber und Streusplitt stehen in der Garage.',
      'Wir sind im Januar und Februar oft auf Reisen und suchen deshalb eine zuverlässige Vertretung.',
      'Abrechnung pro Einsatz, bar oder per PayPal.',
    ]),
    job('Briefkasten leeren während des Urlaubs', { hours: [0.5, 1], rate: [13, 15], helpers: [1, 1] }, [
      'Während unseres dreiwöchigen Urlaubs soll zweimal pro Woche der Briefkasten geleert werden.',
      'Dabei bitte kurz lüften, die Pflanzen gießen und nach dem Rechten sehen.',
      'Der Schlüssel wird vorher persönlich übergeben, wir wohnen in {ort}.',
    ]),
    job('Frühmorgens zum Baden-Airpark fahren', { hours: [1, 2], rate: [15, 20], helpers: [1, 1], license: 1 }, [
      'Unser Flug geht um 6:30 Uhr, deshalb suchen wir jemanden, der uns gegen 4:30 Uhr zum Flughafen fährt.',
      'Gefahren wird mit unserem Auto, das danach wieder zu uns zurückgebracht wird.',
      'Führerschein Klasse B ist natürlich Voraussetzung, Benzin zahlen wir.',
    ]),
  ],
};
