import type { ItemCatalog, ItemTemplate } from './types.js';

type Range = readonly [number, number];

/** The numbers of one template: price per day and deposit in EUR, whether a weekly price is offered. */
interface ItemNumbers {
  day: Range;
  deposit: Range;
  weekly: boolean;
}

/** Builds an ItemTemplate; keeps the catalogue compact (title and numbers on one line, then the sentences). */
function item(title: string, numbers: ItemNumbers, sentences: readonly string[]): ItemTemplate {
  return { title, sentences, dayEur: numbers.day, depositEur: numbers.deposit, weekly: numbers.weekly };
}

export const ITEM_CATALOG: ItemCatalog = {
  GARDENING: [
    item('Rasenmäher Bosch Rotak 37 (Elektro) zu verleihen', { day: [8, 12], deposit: [50, 100], weekly: true }, [
      'Elektro-Rasenmäher mit 37 cm Schnittbreite und Grasfangkorb, ideal für Gärten bis etwa 500 m².',
      'Ein 25-m-Verlängerungskabel gebe ich gerne mit.',
      'Das Messer wurde im Frühjahr geschliffen, der Mäher läuft einwandfrei.',
      'Abholung nach Absprache, bitte gereinigt und ohne Grasreste zurückgeben.',
    ]),
    item('Elektro-Vertikutierer Einhell mit Fangsack', { day: [10, 15], deposit: [50, 100], weekly: true }, [
      'Vertikutierer mit 1.500 W und 36 cm Arbeitsbreite, dazu eine Lüfterwalze zum Wechseln.',
      'Der Fangsack ist dabei, bei starkem Moosbefall empfiehlt sich trotzdem ein Rechen.',
      'Am besten im Frühjahr reservieren, dann ist er sehr gefragt.',
      'Abholung nach Absprache bei mir in der Garage.',
    ]),
    item('Akku-Heckenschere Gardena mit zwei Akkus', { day: [6, 10], deposit: [40, 80], weekly: true }, [
      'Leichte Akku-Heckenschere mit 50 cm Schwertlänge, gut für Hecken bis etwa 2 m Höhe.',
      'Zwei Akkus und ein Ladegerät sind dabei, damit reicht es für eine lange Hecke.',
      'Das Messer ist scharf und frisch geölt, eine Schutzhülle liegt bei.',
    ]),
    item('Gartenhäcksler Bosch AXT 25 TC zu verleihen', { day: [15, 25], deposit: [80, 150], weekly: true }, [
      'Leiser Walzenhäcksler für Äste bis 45 mm Durchmesser, mit 53-Liter-Fangbox.',
      'Perfekt nach dem Hecken- oder Obstbaumschnitt, das Häckselgut eignet sich als Mulch.',
      'Der Häcksler ist auf Rollen und passt in jeden Kombi.',
      'Bitte nur trockenes Holz und keine Erde oder Steine häckseln.',
    ]),
    item('Hochdruckreiniger Kärcher K 5 mit Flächenreiniger', { day: [12, 20], deposit: [80, 150], weekly: true }, [
      'Kärcher K 5 mit Strahlrohr, Dreckfräse und Flächenreiniger T 5 für Terrasse und Einfahrt.',
      'Ein 10-m-Hochdruckschlauch ist dabei, einen Gartenschlauch bitte selbst mitbringen.',
      'Das Gerät ist zwei Jahre alt und in sehr gutem Zustand.',
      'Abholung nach Absprache, am Wochenende auch vormittags möglich.',
    ]),
    item('Motorsense Stihl FS 55 mit Schutzbrille', { day: [15, 25], deposit: [100, 200], weekly: true }, [
      'Benzin-Motorsense mit Fadenkopf und Dickichtmesser für hohes Gras und Brombeeren.',
      'Tragegurt, Schutzbrille und ein Kanister mit Zweitaktgemisch sind dabei.',
      'Bei der Übergabe zeige ich kurz, wie man sie startet.',
    ]),
    item('Benzin-Rasenmäher Honda mit Radantrieb', { day: [15, 25], deposit: [100, 200], weekly: true }, [
      'Kräftiger Benzinmäher mit 46 cm Schnittbreite und Radantrieb, ideal für große Rasenflächen.',
      'Der Mäher wird vollgetankt übergeben und sollte auch so zurückkommen.',
      'Mulchfunktion und Grasfangsack sind vorhanden.',
      'Für den Transport braucht man einen Kombi oder Anhänger, ich helfe beim Einladen.',
    ]),
    item('Akku-Laubbläser Stihl BGA 57', { day: [8, 12], deposit: [50, 100], weekly: true }, [
      'Leiser Akku-Laubbläser, der auch früh am Morgen die Nachbarn nicht stört.',
      'Zwei Akkus und Ladegerät sind dabei, ein Akku reicht für etwa 20 Minuten.',
      'Im Herbst bitte früh anfragen, da er dann oft verliehen ist.',
    ]),
    item('Erdbohrer mit Benzinmotor für Zaunpfosten', { day: [20, 35], deposit: [100, 200], weekly: false }, [
      'Benzin-Erdbohrer mit Bohrern in 100 und 150 mm Durchmesser, bis 80 cm Tiefe.',
      'Ideal für Zaunpfosten, Punktfundamente oder das Pflanzen von Bäumen.',
      'Das Gerät ist schwer und sollte zu zweit bedient werden.',
      'Abholung nach Absprache, Rückgabe bitte von Erde befreit.',
    ]),
    item('Gartenfräse / Motorhacke für Beete', { day: [20, 35], deposit: [100, 250], weekly: true }, [
      'Motorhacke mit 60 cm Arbeitsbreite zum Umgraben von Beeten und Gemüsegärten.',
      'Spart einen ganzen Tag Arbeit mit dem Spaten.',
      'Wird vollgetankt übergeben, für den Transport braucht man einen Kombi oder Anhänger.',
    ]),
  ],
  CLEANING: [
    item('Teppichreiniger Kärcher Puzzi 10/1 zu verleihen', { day: [15, 25], deposit: [80, 150], weekly: true }, [
      'Sprühextraktionsgerät für Teppiche, Polstermöbel und Autositze.',
      'Dabei sind Bodendüse, Polsterdüse und eine Flasche Reinigungsmittel für die ersten Anwendungen.',
      'Das Gerät wird nach jeder Ausleihe gründlich gereinigt und entkalkt.',
      'Abholung nach Absprache im Viertel, bitte Tanks entleert zurückgeben.',
    ]),
    item('Fensterputzroboter Ecovacs Winbot W1', { day: [8, 12], deposit: [80, 150], weekly: true }, [
      'Der Roboter putzt Fenster und Glastüren selbstständig und hält per Saugkraft an der Scheibe.',
      'Ein Sicherheitsseil, zwei Reinigungspads und die Reinigungsflüssigkeit sind dabei.',
      'Funktioniert auch bei großen Terrassentüren und rahmenlosem Glas.',
    ]),
    item('Dampfreiniger Kärcher SC 4 mit Zubehör', { day: [8, 15], deposit: [50, 100], weekly: true }, [
      'Dampfreiniger für Fliesen, Fugen, Küche und Bad, ganz ohne Chemie.',
      'Dabei sind Bodendüse, Handdüse, Punktstrahldüse und mehrere Rundbürsten.',
      'Ideal für die Endreinigung vor der Wohnungsübergabe.',
      'Bitte nur mit entkalktem oder destilliertem Wasser verwenden.',
    ]),
    item('Akku-Fenstersauger Kärcher WV 6', { day: [3, 6], deposit: [30, 50], weekly: true }, [
      'Fenstersauger mit Sprühflasche und Wischbezug, Fenster werden streifenfrei und ohne Tropfen.',
      'Der Akku reicht für etwa 100 m² Glasfläche, das Ladegerät ist dabei.',
      'Abholung nach Absprache, auch kurzfristig möglich.',
    ]),
    item('Nass-Trockensauger Kärcher WD 6 P', { day: [8, 12], deposit: [50, 100], weekly: true }, [
      'Kräftiger Sauger für Bauschmutz, Keller, Garage und Wasserschäden.',
      'Mit Steckdose zum Anschluss von Elektrowerkzeugen, der Sauger startet automatisch mit.',
      'Ein Filterbeutel ist eingesetzt, weitere bitte bei Bedarf selbst kaufen.',
    ]),
    item('Einscheibenmaschine für Parkett und Fliesen', { day: [25, 40], deposit: [150, 300], weekly: false }, [
      'Profi-Einscheibenmaschine zum Schrubben, Polieren und Grundreinigen von Hartböden.',
      'Dabei sind Bürste, Treibteller und einige Pads in verschiedenen Stärken.',
      'Das Gerät wiegt ca. 35 kg, für den Transport braucht man ein Auto.',
      'Eine kurze Einweisung gibt es bei der Abholung.',
    ]),
    item('Luftentfeuchter Trotec TTK 100 E', { day: [5, 8], deposit: [50, 100], weekly: true }, [
      'Bautrockner mit bis zu 30 Litern Entfeuchtungsleistung am Tag, ideal für feuchte Keller und Neubauten.',
      'Ein Schlauch für den Dauerablauf ist dabei.',
      'Gerne auch für mehrere Wochen, dann gibt es einen günstigeren Wochenpreis.',
    ]),
    item('Polsterreiniger Bissell SpotClean Pro', { day: [8, 12], deposit: [40, 80], weekly: true }, [
      'Kompakter Fleckenreiniger für Sofa, Matratzen, Autositze und Treppenstufen.',
      'Eine Handdüse und eine Flasche Reinigungsmittel sind dabei.',
      'Auch Flecken von Rotwein, Kaffee oder Haustieren bekommt man damit gut raus.',
      'Abholung nach Absprache, bitte gereinigt zurückgeben.',
    ]),
    item('Akku-Bodenreiniger Kärcher FC 7', { day: [6, 10], deposit: [50, 100], weekly: true }, [
      'Wischt und saugt in einem Arbeitsgang, geeignet für Fliesen, Vinyl und versiegeltes Parkett.',
      'Vier Walzen und zwei Ersatzwalzen sind dabei.',
      'Der Akku reicht für etwa 60 m², das Ladegerät gebe ich mit.',
    ]),
  ],
  MOVING: [
    item('Umzugskartons 20 Stück, stabil und sauber', { day: [1, 3], deposit: [10, 20], weekly: true }, [
      'Zwanzig stabile Umzugskartons, zweiwellig und mit Tragegriffen, bereits mehrfach verwendet.',
      'Sie sind zusammengefaltet und passen so in jeden Kofferraum.',
      'Bitte nicht bekleben, ein paar Aufkleber zum Beschriften gebe ich gern mit.',
      'Abholung nach Absprache, die Rückgabe darf auch nach zwei Wochen sein.',
    ]),
    item('Sackkarre mit Treppenrollen, bis 200 kg', { day: [4, 8], deposit: [30, 60], weekly: true }, [
      'Stabile Sackkarre mit Luftbereifung und Treppengleitkufen, klappbare Schaufel.',
      'Gut geeignet für Waschmaschinen, Kühlschränke und Kartonstapel.',
      'Abholung nach Absprache, ein Spanngurt ist dabei.',
    ]),
    item('Möbelroller 4er-Set, je 200 kg Tragkraft', { day: [2, 4], deposit: [10, 20], weekly: true }, [
      'Vier Möbelroller mit gummierter Auflage, damit lassen sich Schränke und Kommoden leicht verschieben.',
      'Die Rollen sind leise und hinterlassen keine Spuren auf Parkett.',
      'Passt in eine Einkaufstasche, Abholung nach Absprache.',
    ]),
    item('PKW-Anhänger 750 kg mit Hochplane', { day: [25, 45], deposit: [100, 300], weekly: true }, [
      'Ungebremster Anhänger mit Ladefläche 2,05 x 1,10 m und Hochplane, 750 kg zulässige Gesamtmasse.',
      'Fahrbar mit Führerschein Klasse B, Anschluss 13-polig mit Adapter auf 7-polig.',
      'Ideal für Umzüge, Sperrmüll und Fahrten zum Wertstoffhof.',
      'Bitte besenrein zurückgeben, TÜV ist neu.',
    ]),
    item('Möbeltragegurte für zwei Personen', { day: [2, 4], deposit: [10, 20], weekly: true }, [
      'Tragegurt-Set, mit dem zwei Personen schwere Möbel rückenschonend tragen können.',
      'Besonders praktisch für Waschmaschinen, Sofas und Matratzen.',
      'Bei der Abholung zeige ich gerne, wie die Gurte angelegt werden.',
    ]),
    item('Tandemanhänger 2 t, Führerschein BE nötig', { day: [40, 60], deposit: [200, 400], weekly: true }, [
      'Gebremster Tandemanhänger mit 2.000 kg Gesamtgewicht und 3 x 1,50 m Ladefläche.',
      'Zum Ziehen braucht man einen Führerschein BE oder B96 und ein passendes Zugfahrzeug.',
      'Spanngurte und Auffahrrampen sind dabei.',
      'Übergabe mit kurzer Einweisung, Abholung nach Absprache.',
    ]),
    item('Umzugsboxen aus Kunststoff, 15 Stück', { day: [2, 4], deposit: [20, 50], weekly: true }, [
      'Fünfzehn stapelbare Kunststoffboxen mit Klappdeckel, je ca. 60 Liter.',
      'Robuster als Kartons und ideal für Geschirr, Bücher und Küchenkram.',
      'Die Boxen sind sauber, bitte auch so zurückgeben.',
    ]),
    item('Spanngurte und Möbeldecken für Transporte', { day: [2, 4], deposit: [10, 30], weekly: true }, [
      'Zehn Ratschen-Spanngurte und acht gepolsterte Möbeldecken zum Schutz von Möbeln im Transporter.',
      'Die Decken sind gewaschen und in gutem Zustand.',
      'Abholung nach Absprache, gerne auch zusammen mit Sackkarre und Möbelrollern.',
    ]),
    item('Elektrischer Treppensteiger für schwere Lasten', { day: [30, 50], deposit: [200, 400], weekly: false }, [
      'Akku-Treppensteiger für Lasten bis 170 kg, trägt Waschmaschinen und Kühlschränke die Treppe hoch.',
      'Vor der ersten Nutzung gibt es eine kurze Einweisung.',
      'Der Akku schafft etwa 15 Stockwerke mit voller Last.',
      'Abholung nach Absprache, der Treppensteiger passt in einen Kombi.',
    ]),
    item('Kleiderboxen mit Kleiderstange, 5 Stück', { day: [1, 3], deposit: [10, 20], weekly: true }, [
      'Hohe Umzugskartons mit Kleiderstange, in die Hemden, Kleider und Mäntel hängend passen.',
      'So kommt nichts verknittert in der neuen Wohnung an.',
      'Die Boxen werden flach übergeben und sind schnell aufgebaut.',
    ]),
  ],
  TECH_REPAIR: [
    item('Bohrmaschine Bosch PSB 750 RCE zu verleihen', { day: [5, 10], deposit: [30, 80], weekly: true }, [
      'Schlagbohrmaschine mit 750 W, geeignet für Holz, Metall und Mauerwerk.',
      'Im Koffer sind Tiefenanschlag, Zusatzhandgriff und ein Bohrerset dabei.',
      'Für Beton empfehle ich eher den Bohrhammer, den ich ebenfalls verleihe.',
      'Abholung nach Absprache, auch abends nach 18 Uhr.',
    ]),
    item('Akkuschrauber Makita DDF484 mit zwei Akkus', { day: [6, 10], deposit: [50, 100], weekly: true }, [
      'Kräftiger 18-V-Akkuschrauber, ideal für Möbelaufbau und Arbeiten mit Holz.',
      'Zwei Akkus, Schnellladegerät und ein Bit-Set sind im Koffer.',
      'Die Akkus sind geladen, wenn Sie das Gerät abholen.',
    ]),
    item('Lötstation Weller WE 1010 mit Zubehör', { day: [5, 8], deposit: [40, 80], weekly: true }, [
      'Temperaturgeregelte Lötstation für Elektronikbasteleien und kleine Reparaturen.',
      'Dabei sind mehrere Lötspitzen, Lötzinn, Entlötlitze und eine Messingwolle zum Reinigen.',
      'Eine dritte Hand mit Lupe kann ich zusätzlich mitgeben.',
    ]),
    item('Laser-Entfernungsmesser Bosch GLM 50 C', { day: [3, 6], deposit: [30, 60], weekly: true }, [
      'Misst Entfernungen bis 50 m auf den Millimeter genau, dazu Flächen und Volumen.',
      'Die Messwerte lassen sich per Bluetooth in die Bosch-App übertragen.',
      'Perfekt zum Ausmessen einer neuen Wohnung vor dem Möbelkauf.',
      'Batterien und Schutztasche sind dabei.',
    ]),
    item('Fliesenschneider Rubi mit 66 cm Schnittlänge', { day: [8, 15], deposit: [50, 100], weekly: true }, [
      'Manueller Fliesenschneider für Fliesen bis 66 cm, auch diagonal bis ca. 47 cm.',
      'Das Schneidrad ist neu, dazu gebe ich eine Fliesenlochzange mit.',
      'Ideal für Bad- oder Küchenrenovierungen in Eigenregie.',
    ]),
    item('Bohrhammer Bosch GBH 2-26 mit Meißeln', { day: [10, 15], deposit: [80, 150], weekly: true }, [
      'Profi-Bohrhammer mit SDS-plus-Aufnahme für Beton und Stahlbeton.',
      'Dabei sind Bohrer von 6 bis 12 mm, ein Flachmeißel und ein Spitzmeißel.',
      'Auch zum Abstemmen von Fliesen gut geeignet.',
      'Abholung nach Absprache, bitte Gehörschutz selbst mitbringen.',
    ]),
    item('Stichsäge Bosch PST 900 PEL', { day: [5, 8], deposit: [40, 70], weekly: true }, [
      'Stichsäge mit Pendelhub, geeignet für Holz, Laminat und Arbeitsplatten.',
      'Einige Sägeblätter für Holz und Metall sind im Koffer.',
      'Ein Parallelanschlag für gerade Schnitte ist ebenfalls dabei.',
    ]),
    item('Multimeter Fluke 117 zu verleihen', { day: [3, 5], deposit: [50, 100], weekly: true }, [
      'Zuverlässiges Digitalmultimeter für Spannung, Strom, Widerstand und Durchgang.',
      'Mit berührungsloser Spannungsprüfung, praktisch bei der Fehlersuche.',
      'Messleitungen und Tasche sind dabei, Arbeiten am Stromnetz bitte nur mit Fachkenntnis.',
    ]),
    item('Kreuzlinienlaser Bosch Quigo', { day: [4, 7], deposit: [30, 60], weekly: true }, [
      'Selbstnivellierender Kreuzlinienlaser zum Aufhängen von Bildern, Regalen und Hängeschränken.',
      'Die Klemme für Stativ oder Regalbrett ist dabei.',
      'Abholung nach Absprache, Batterien sind frisch.',
    ]),
    item('Kappsäge Metabo KGS 254 M', { day: [10, 15], deposit: [80, 150], weekly: true }, [
      'Kapp- und Gehrungssäge mit Zugfunktion, ideal zum Zuschneiden von Laminat, Sockelleisten und Latten.',
      'Ein neues Sägeblatt mit 254 mm ist montiert.',
      'Die Säge wiegt rund 17 kg, für den Transport braucht man ein Auto.',
      'Vor der Übergabe zeige ich kurz die Bedienung und die Sicherheitsfunktionen.',
    ]),
    item('Dampf-Tapetenablöser Wagner SteamForce', { day: [5, 10], deposit: [30, 60], weekly: true }, [
      'Löst alte Tapeten mit heißem Dampf, auch mehrere Lagen übereinander.',
      'Dabei sind eine große Dampfplatte und ein Spachtel.',
      'Spart beim Renovieren viel Zeit und Kraft, besonders in Altbauwohnungen.',
    ]),
  ],
  CHILDCARE: [
    item('Kinderwagen Bugaboo Fox mit Babywanne', { day: [5, 10], deposit: [100, 200], weekly: true }, [
      'Kombikinderwagen mit Babywanne und Sportsitz, gut gefedert und auch für Waldwege geeignet.',
      'Regenschutz, Sonnenverdeck und Getränkehalter sind dabei.',
      'Ideal für Besuch mit Baby oder als Zweitwagen bei den Großeltern.',
      'Der Bezug ist frisch gewaschen, Abholung nach Absprache.',
    ]),
    item('Reisebett Hauck mit Matratze', { day: [3, 5], deposit: [20, 40], weekly: true }, [
      'Faltbares Reisebett (60 x 120 cm) mit dicker Matratze und Tragetasche.',
      'Der Aufbau dauert keine zwei Minuten.',
      'Perfekt für den Urlaub oder wenn die Enkel übers Wochenende zu Besuch kommen.',
    ]),
    item('Kindersitz Cybex Solution (15-36 kg)', { day: [3, 6], deposit: [30, 60], weekly: true }, [
      'Kindersitz für Kinder von etwa 3 bis 12 Jahren, mit Isofix-Verbindung.',
      'Unfallfrei und regelmäßig gereinigt, der Bezug ist abnehmbar.',
      'Gut für Urlaubsreisen, Mietwagen oder wenn die Großeltern die Kinder abholen.',
    ]),
    item('Babyphone Philips Avent mit Kamera', { day: [3, 5], deposit: [40, 80], weekly: true }, [
      'Video-Babyphone mit Nachtsicht, Gegensprechfunktion und Temperaturanzeige.',
      'Die Elterneinheit hat einen Akku, die Reichweite reicht auch in den Garten.',
      'Beide Netzteile sind dabei, Abholung nach Absprache.',
    ]),
    item('Babyschale Maxi-Cosi mit Isofix-Station', { day: [4, 7], deposit: [50, 100], weekly: true }, [
      'Babyschale für Neugeborene bis ca. 13 kg, passt auf viele Kinderwagen-Gestelle.',
      'Die Isofix-Station ist dabei, der Einbau dauert nur wenige Sekunden.',
      'Unfallfrei und mit gewaschenem Bezug.',
      'Ideal für die Fahrt aus der Klinik oder für Besuch mit Baby.',
    ]),
    item('Hochstuhl Stokke Tripp Trapp mit Babyset', { day: [2, 4], deposit: [30, 60], weekly: true }, [
      'Mitwachsender Hochstuhl aus Buche mit Babyset und Sitzkissen.',
      'Gut geeignet, wenn Familien mit Kleinkind zu Besuch kommen.',
      'Der Stuhl ist sauber und vollständig, leichte Gebrauchsspuren sind vorhanden.',
    ]),
    item('Fahrradanhänger Thule Chariot Cross für 2 Kinder', { day: [10, 15], deposit: [150, 300], weekly: true }, [
      'Gefederter Zweisitzer-Anhänger mit Regenverdeck und Insektenschutz.',
      'Eine Kupplung für die Hinterachse ist dabei, eine zweite kann ich bei Bedarf mitgeben.',
      'Auch als Jogger oder Buggy nutzbar, das Set dafür verleihe ich mit.',
      'Bitte vor der ersten Fahrt kurz zeigen lassen, wie die Kupplung funktioniert.',
    ]),
    item('Babytrage Ergobaby Omni 360', { day: [2, 4], deposit: [30, 60], weekly: true }, [
      'Ergonomische Babytrage ab Geburt, Tragen vor dem Bauch, auf der Hüfte und auf dem Rücken.',
      'Die Trage wurde frisch gewaschen und ist in sehr gutem Zustand.',
      'Perfekt zum Ausprobieren, bevor man selbst eine kauft.',
    ]),
    item('Reisebuggy Babyzen YOYO, handgepäcktauglich', { day: [4, 7], deposit: [80, 150], weekly: true }, [
      'Leichter Buggy, der zusammengeklappt als Handgepäck ins Flugzeug darf.',
      'Mit Sonnenverdeck, Regenschutz und Transporttasche.',
      'Ideal für Städtereisen und Urlaube mit Kleinkind.',
    ]),
  ],
  PETCARE: [
    item('Hundebox faltbar, Größe L (Metall)', { day: [2, 4], deposit: [20, 40], weekly: true }, [
      'Stabile Drahtbox mit zwei Türen für mittelgroße bis große Hunde, ca. 92 x 58 x 64 cm.',
      'Eine waschbare Bodenmatte ist dabei.',
      'Zusammengeklappt passt sie in jeden Kofferraum, Abholung nach Absprache.',
    ]),
    item('Katzentransportbox Trixie mit Dachöffnung', { day: [1, 3], deposit: [10, 20], weekly: true }, [
      'Transportbox für Katzen und kleine Hunde bis ca. 8 kg, mit Tür vorne und Öffnung oben.',
      'Über die Dachöffnung lassen sich auch ängstliche Katzen leicht hineinsetzen.',
      'Die Box wird nach jeder Ausleihe gereinigt und desinfiziert.',
    ]),
    item('Hundeanhänger fürs Fahrrad bis 30 kg', { day: [6, 10], deposit: [80, 150], weekly: true }, [
      'Gefederter Fahrradanhänger für Hunde bis 30 kg, mit Regendach und Sichtfenster.',
      'Kupplung für die Hinterachse ist dabei, der Anhänger lässt sich flach zusammenklappen.',
      'Ideal für ältere Hunde oder längere Radtouren.',
      'Abholung nach Absprache, eine kurze Einweisung gebe ich gern.',
    ]),
    item('Hundebuggy für kleine und ältere Hunde', { day: [4, 6], deposit: [40, 80], weekly: true }, [
      'Buggy für Hunde bis ca. 15 kg, mit Netzdach und Sicherheitsleine im Inneren.',
      'Praktisch nach Operationen, für alte Hunde oder für Stadtbummel mit Menschenmengen.',
      'Der Buggy lässt sich einhändig zusammenklappen.',
    ]),
    item('Kaninchen-Freigehege mit 8 Elementen', { day: [1, 3], deposit: [15, 30], weekly: true }, [
      'Metall-Freilaufgehege mit acht Elementen und Tür, ca. 80 cm hoch.',
      'Ideal für Kaninchen oder Meerschweinchen im Garten oder auf dem Balkon.',
      'Ein Schutznetz gegen Greifvögel gebe ich gerne mit.',
    ]),
    item('Auto-Trenngitter und Schondecke für Hunde', { day: [2, 4], deposit: [20, 40], weekly: true }, [
      'Universal-Trenngitter zum Einklemmen zwischen Rückbank und Kofferraum.',
      'Dazu eine wasserfeste Schondecke für Rückbank oder Kofferraum.',
      'Perfekt für den Urlaub mit Hund oder die Fahrt zum Tierarzt.',
    ]),
    item('Hundeschermaschine Moser mit Aufsätzen', { day: [3, 5], deposit: [30, 60], weekly: true }, [
      'Leise Akku-Schermaschine für Hunde mit mehreren Aufsteckkämmen von 3 bis 12 mm.',
      'Klingenöl und Reinigungsbürste sind dabei.',
      'Wird nach jeder Ausleihe gereinigt und desinfiziert.',
    ]),
    item('Hundeschwimmweste Größe M', { day: [1, 3], deposit: [15, 30], weekly: true }, [
      'Schwimmweste mit Griff am Rücken für Hunde von etwa 15 bis 25 kg.',
      'Ideal für SUP-Touren, Bootsausflüge oder Hunde, die noch schwimmen lernen.',
      'Abholung nach Absprache, auch kurzfristig.',
    ]),
    item('Türschutzgitter für Hunde, ausziehbar', { day: [1, 3], deposit: [15, 30], weekly: true }, [
      'Klemmgitter für Türen und Treppen von 75 bis 95 cm Breite, ohne Bohren.',
      'Gut geeignet, wenn ein Welpe oder Besuchshund nicht ins ganze Haus soll.',
      'Verlängerungselemente sind dabei.',
    ]),
  ],
  SHOPPING: [
    item('E-Lastenrad Urban Arrow mit Regenverdeck', { day: [20, 35], deposit: [200, 400], weekly: true }, [
      'Elektrisches Lastenrad mit großer Transportbox, passt für den Wocheneinkauf oder zwei Kinder.',
      'Regenverdeck, zwei Sicherheitsgurte und ein Faltschloss sind dabei.',
      'Der Akku reicht für etwa 50 km, das Ladegerät gebe ich mit.',
      'Übergabe mit kurzer Probefahrt, damit man sich an das Fahrgefühl gewöhnt.',
    ]),
    item('Einkaufstrolley Andersen mit großen Rädern', { day: [1, 3], deposit: [10, 20], weekly: true }, [
      'Stabiler Einkaufstrolley mit Kühlfach, kugelgelagerten Rädern und 40 Litern Volumen.',
      'Sehr leichtgängig, auch auf Kopfsteinpflaster.',
      'Ideal für den Markt oder wenn man nach einer OP nicht schwer tragen darf.',
    ]),
    item('Fahrradanhänger Croozer Cargo für Einkäufe', { day: [5, 8], deposit: [50, 100], weekly: true }, [
      'Lastenanhänger für bis zu 40 kg, passt zum Beispiel für vier Getränkekisten.',
      'Eine Kupplung für die Hinterachse ist dabei.',
      'Der Anhänger lässt sich zusammenklappen und im Kofferraum transportieren.',
    ]),
    item('Bollerwagen faltbar mit Luftreifen', { day: [3, 5], deposit: [20, 40], weekly: true }, [
      'Faltbarer Bollerwagen mit Luftreifen und Feststellbremse, Zuladung bis 100 kg.',
      'Praktisch für Großeinkäufe, Ausflüge an den Baggersee oder Wege zum Flohmarkt.',
      'Die Stoffwanne ist abnehmbar und waschbar.',
    ]),
    item('Elektrische Kühlbox 12 V / 230 V, 35 Liter', { day: [3, 6], deposit: [30, 60], weekly: true }, [
      'Kühlbox mit Anschluss für den Zigarettenanzünder und die Steckdose.',
      'Gut für Großeinkäufe im Sommer oder die Fahrt in den Urlaub.',
      'Die Box ist sauber und geruchsfrei, beide Kabel sind dabei.',
    ]),
    item('Treppensteiger-Einkaufstrolley mit 6 Rädern', { day: [1, 3], deposit: [10, 20], weekly: true }, [
      'Durch die drei Räder pro Seite rollt der Trolley ohne Heben über Treppenstufen.',
      'Ideal für Wohnungen ohne Aufzug, trägt bis 30 kg.',
      'Die Tasche ist wasserabweisend und hat ein Kühlfach.',
    ]),
    item('Lastenrad Bakfiets ohne Motor', { day: [10, 18], deposit: [100, 250], weekly: true }, [
      'Klassisches holländisches Lastenrad mit Holzkiste und Regenplane.',
      'Ohne Motor, daher eher für flache Strecken in der Stadt geeignet.',
      'Ein Ringschloss und ein Kettenschloss sind dabei.',
      'Abholung nach Absprache, gern mit kurzer Probefahrt.',
    ]),
    item('E-Bike mit Packtaschen für Besorgungen', { day: [15, 25], deposit: [150, 300], weekly: true }, [
      'Trekking-E-Bike mit Bosch-Mittelmotor, Rahmengröße M (für ca. 1,65 bis 1,85 m Körpergröße).',
      'Zwei wasserdichte Packtaschen und ein Fahrradkorb sind dabei.',
      'Akku und Ladegerät gibt es mit, Helm bitte selbst mitbringen.',
    ]),
    item('Thermotaschen-Set für Tiefkühlware', { day: [1, 2], deposit: [5, 15], weekly: true }, [
      'Drei große Isoliertaschen und sechs Kühlakkus für den Einkauf von Tiefkühlware.',
      'Gut für Großeinkäufe im Großmarkt oder lange Wege im Sommer.',
      'Die Kühlakkus sind bei der Übergabe durchgefroren.',
    ]),
  ],
  EVENTS: [
    item('Partyzelt 3x6 m mit Seitenwänden', { day: [20, 35], deposit: [100, 250], weekly: true }, [
      'Stabiles Partyzelt mit Stahlgestänge, vier Seitenwänden mit Fenstern und zwei Türen.',
      'Platz für etwa 30 Gäste an Bierzeltgarnituren.',
      'Erdnägel, Spanngurte und Aufbauanleitung sind dabei, der Aufbau dauert zu zweit etwa eine Stunde.',
      'Bitte nur trocken eingepackt zurückgeben oder zu Hause nachtrocknen lassen.',
    ]),
    item('Bierzeltgarnitur, 5 Sets (Tisch + 2 Bänke)', { day: [20, 35], deposit: [50, 150], weekly: true }, [
      'Fünf klassische Bierzeltgarnituren mit 220 cm Länge, insgesamt Platz für 40 Personen.',
      'Die Tische haben eine Breite von 70 cm, die Bänke sind stabil und wackelfrei.',
      'Für den Transport braucht man einen Anhänger oder Transporter.',
      'Abholung nach Absprache, gern auch einzelne Sets.',
    ]),
    item('Musikanlage JBL PartyBox 710', { day: [20, 30], deposit: [150, 300], weekly: true }, [
      'Kräftige Party-Lautsprecherbox mit Bluetooth, Lichteffekten und Mikrofoneingang.',
      'Reicht problemlos für eine Feier mit 80 Gästen im Garten oder Vereinsheim.',
      'Ein Kabelmikrofon und ein Klinkenkabel sind dabei.',
    ]),
    item('Beamer Epson mit Leinwand 2,5 m', { day: [20, 35], deposit: [150, 400], weekly: true }, [
      'Full-HD-Beamer mit 3.000 Lumen, dazu eine Stativleinwand mit 2,5 m Breite.',
      'Ideal für Public Viewing im Garten, Präsentationen oder Filmabende.',
      'HDMI-Kabel (10 m) und ein kleiner Bluetooth-Lautsprecher sind dabei.',
      'Übergabe nur persönlich, bitte nicht im Regen betreiben.',
    ]),
    item('Zuckerwattemaschine mit Zubehör', { day: [15, 25], deposit: [50, 120], weekly: false }, [
      'Zuckerwattemaschine mit Spuckschutz, ideal für Kindergeburtstage und Straßenfeste.',
      'Dabei sind 100 Holzstäbchen und Zucker für die ersten Portionen.',
      'Bitte gründlich gereinigt zurückgeben, eine Anleitung liegt bei.',
    ]),
    item('Popcornmaschine im Retro-Look', { day: [12, 20], deposit: [50, 100], weekly: false }, [
      'Popcornmaschine im Kinostil mit beheiztem Ausgabefach.',
      'Für Kindergeburtstage, Filmabende oder als Hingucker auf dem Sommerfest.',
      'Zwanzig Popcorntüten gebe ich gratis dazu.',
    ]),
    item('Stehtische mit Hussen, 4 Stück', { day: [10, 16], deposit: [40, 80], weekly: true }, [
      'Vier klappbare Stehtische mit 80 cm Durchmesser und weißen Stretch-Hussen.',
      'Perfekt für Empfänge, Sektempfang bei Hochzeiten oder Gartenpartys.',
      'Die Hussen sind frisch gewaschen, bitte ungewaschen zurückgeben, ich wasche selbst.',
    ]),
    item('Lichterketten und LED-Partybeleuchtung', { day: [8, 15], deposit: [30, 60], weekly: true }, [
      'Fünf Lichterketten mit je 10 m, dazu zwei LED-Strahler mit Farbwechsel.',
      'Alles ist für draußen geeignet, Verlängerungskabel und Mehrfachstecker sind dabei.',
      'Macht aus jedem Garten oder Hof eine schöne Partylocation.',
    ]),
    item('Gasgrill Weber Genesis mit Gasflasche', { day: [20, 35], deposit: [100, 250], weekly: true }, [
      'Großer Gasgrill mit drei Brennern, ausreichend für Feiern mit 30 bis 40 Gästen.',
      'Eine volle 11-kg-Gasflasche ist dabei, verbrauchtes Gas wird nach Gewicht abgerechnet.',
      'Bitte mit gereinigtem Grillrost zurückgeben.',
      'Für den Transport braucht man einen Transporter oder Anhänger.',
    ]),
    item('Funkmikrofon-Set mit Lautsprecher für Reden', { day: [15, 25], deposit: [100, 200], weekly: true }, [
      'Aktiver Lautsprecher mit Akku und zwei Funkmikrofonen, ideal für Reden und Spiele auf Hochzeiten.',
      'Funktioniert auch ohne Steckdose für etwa acht Stunden.',
      'Ein Stativ für den Lautsprecher ist dabei.',
    ]),
    item('Heizpilz mit Gasflasche für draußen', { day: [15, 25], deposit: [80, 150], weekly: true }, [
      'Terrassenheizer mit Propangas, wärmt im Umkreis von etwa drei Metern.',
      'Ideal für Feiern im Herbst oder Silvester im Garten.',
      'Eine volle 11-kg-Gasflasche ist dabei, Kippschutz ist eingebaut.',
    ]),
    item('Gläser-Set 100 Stück (Sekt, Wein, Bier)', { day: [15, 25], deposit: [50, 100], weekly: false }, [
      'Je 40 Sektgläser und Weingläser sowie 20 Biergläser, sauber in Transportkisten verpackt.',
      'Die Gläser werden gespült zurückgegeben, zerbrochene Gläser werden mit 2 Euro pro Stück berechnet.',
      'Abholung nach Absprache, am besten mit dem Auto.',
    ]),
  ],
  BORROWING: [
    item('Leiter Hailo 3x9 Sprossen zu verleihen', { day: [3, 6], deposit: [30, 60], weekly: true }, [
      'Dreiteilige Mehrzweckleiter, als Anlegeleiter bis ca. 6,50 m Arbeitshöhe nutzbar.',
      'Auch als Stehleiter verwendbar, zum Beispiel für Dachrinne, Fenster oder Obstbäume.',
      'Die Leiter ist 2,60 m lang zusammengeschoben, für den Transport braucht man einen Dachträger.',
      'Abholung nach Absprache, gerne helfe ich beim Aufladen.',
    ]),
    item('Campingausrüstung: Kocher, Geschirr, Stühle', { day: [5, 10], deposit: [30, 60], weekly: true }, [
      'Komplettes Camping-Küchenset mit Zweiflammen-Gaskocher, Topfset und Geschirr für vier Personen.',
      'Dazu vier Campingstühle und ein Klapptisch.',
      'Eine Gaskartusche ist dabei, weitere gibt es im Baumarkt.',
      'Bitte alles gespült zurückbringen.',
    ]),
    item('Zelt Vaude für 4 Personen', { day: [8, 12], deposit: [50, 100], weekly: true }, [
      'Tunnelzelt für vier Personen mit großer Apsis und zwei Eingängen.',
      'Das Zelt ist dicht und wurde zuletzt im Sommer auf einem Campingplatz am Bodensee genutzt.',
      'Heringe, Abspannleinen und ein Ersatzgestänge sind dabei.',
      'Bitte trocken zurückgeben oder Bescheid geben, dann trockne ich es selbst.',
    ]),
    item('Dachbox Thule Motion XT L (450 l)', { day: [8, 15], deposit: [80, 150], weekly: true }, [
      'Große Dachbox mit 450 Litern, passt für Skiausrüstung von vier Personen.',
      'Öffnet von beiden Seiten, die Schnellmontage dauert etwa zehn Minuten.',
      'Grundträger sind nicht dabei, bitte passende Träger für das eigene Auto mitbringen.',
      'Gerne helfe ich beim Montieren.',
    ]),
    item('Raclette-Set für 8 Personen mit Grillplatte', { day: [3, 6], deposit: [20, 40], weekly: true }, [
      'Raclette mit acht Pfännchen, Schiebern und einer wendbaren Grillplatte.',
      'Ideal für Silvester, Geburtstage oder gemütliche Winterabende.',
      'Bitte gereinigt zurückgeben, die Pfännchen dürfen in die Spülmaschine.',
    ]),
    item('Fondue-Set für Käse- und Fleischfondue', { day: [3, 5], deposit: [20, 40], weekly: true }, [
      'Elektrisches Fondue mit Edelstahltopf für Brühe oder Öl und einem Caquelon für Käsefondue.',
      'Acht Fonduegabeln mit Farbmarkierung sind dabei.',
      'Abholung nach Absprache, zurück bitte sauber gespült.',
    ]),
    item('Schlafsäcke und Isomatten, 2 Sets', { day: [4, 8], deposit: [30, 50], weekly: true }, [
      'Zwei Mumienschlafsäcke (Komfort bis 5 °C) und zwei selbstaufblasende Isomatten.',
      'Die Schlafsäcke werden nach jeder Ausleihe gewaschen.',
      'Ideal für Festival, Zeltlager oder Übernachtungsbesuch.',
    ]),
    item('Luftmatratze Doppelbett mit elektrischer Pumpe', { day: [3, 5], deposit: [20, 40], weekly: true }, [
      'Hohe Gästeluftmatratze (203 x 152 cm) mit eingebauter elektrischer Pumpe.',
      'In drei Minuten aufgepumpt und fast so bequem wie ein richtiges Bett.',
      'Bettwäsche bitte selbst mitbringen.',
    ]),
    item('Fahrradträger für Anhängerkupplung (3 Räder)', { day: [8, 12], deposit: [60, 120], weekly: true }, [
      'Abklappbarer Kupplungsträger für bis zu drei Fahrräder oder zwei E-Bikes.',
      'Mit 13-poligem Stecker, ein Adapter auf 7-polig ist dabei.',
      'Abschließbar, zwei Schlüssel werden übergeben.',
      'Bei der ersten Montage helfe ich gern.',
    ]),
    item('Gesellschaftsspiele-Paket für Spieleabend', { day: [2, 4], deposit: [20, 40], weekly: true }, [
      'Ein Paket mit sechs beliebten Spielen, u. a. Catan, Codenames und Azul.',
      'Alle Spiele sind vollständig, bitte nach dem Spielen nachzählen.',
      'Ideal für Spieleabende mit Freunden oder verregnete Urlaubstage.',
    ]),
  ],
  OTHER: [
    item('Nähmaschine Singer Tradition mit Zubehör', { day: [5, 8], deposit: [50, 100], weekly: true }, [
      'Einfache, robuste Nähmaschine mit 23 Stichprogrammen und Knopflochautomatik.',
      'Dabei sind Spulen, Nadeln, Nähfüße und die Bedienungsanleitung.',
      'Ideal für Kostüme, Vorhänge oder kleine Reparaturen.',
      'Eine kurze Einweisung gibt es gratis bei der Abholung.',
    ]),
    item('Stand-Up-Paddle aufblasbar, komplettes Set', { day: [15, 25], deposit: [100, 200], weekly: true }, [
      'Aufblasbares SUP-Board (320 cm) mit Paddel, Pumpe, Leash und Rucksack.',
      'Passt gut für Baggerseen in der Umgebung oder ruhige Abschnitte am Rhein.',
      'Eine Schwimmweste kann ich auf Wunsch dazugeben.',
      'Bitte nach der Nutzung trocknen lassen und sauber zurückgeben.',
    ]),
    item('Werkbank klappbar Wolfcraft Master 700', { day: [4, 7], deposit: [30, 60], weekly: true }, [
      'Klappbare Arbeits- und Spannbank mit großer Arbeitsfläche, belastbar bis 200 kg.',
      'Dabei sind vier Spannbacken zum Fixieren von Werkstücken.',
      'Zusammengeklappt passt sie in jeden Kofferraum.',
    ]),
    item('Schlauchkajak für 2 Personen mit Paddeln', { day: [15, 25], deposit: [100, 200], weekly: true }, [
      'Aufblasbares Zweierkajak mit zwei Paddeln, Pumpe und Transporttasche.',
      'In etwa zehn Minuten aufgebaut, ideal für Altrheinarme und Seen.',
      'Zwei Schwimmwesten sind dabei.',
    ]),
    item('Spiegelreflexkamera Canon EOS 250D mit Objektiv', { day: [12, 20], deposit: [200, 400], weekly: true }, [
      'Einsteiger-Spiegelreflexkamera mit Kit-Objektiv 18-55 mm und 64-GB-Speicherkarte.',
      'Zwei Akkus, Ladegerät und eine Kameratasche sind dabei.',
      'Gut für Urlaub, Familienfeiern oder zum Ausprobieren, bevor man selbst eine kauft.',
      'Übergabe nur persönlich gegen Kaution und Ausweis.',
    ]),
    item('Teleskop Celestron für Einsteiger', { day: [8, 12], deposit: [100, 200], weekly: true }, [
      'Spiegelteleskop mit 130 mm Öffnung auf stabiler Montierung, dazu zwei Okulare.',
      'Mond, Jupiter und Saturn sind damit gut zu sehen.',
      'Ich erkläre gern den Aufbau und die ersten Schritte.',
    ]),
    item('Schneideplotter Cricut Maker zum Basteln', { day: [8, 12], deposit: [80, 150], weekly: true }, [
      'Plotter für Vinyl, Papier, Stoff und Karton, ideal für Einladungen, Deko und T-Shirt-Motive.',
      'Zwei Schneidematten und ein Set Werkzeuge sind dabei.',
      'Ein Konto in der Cricut-App braucht man selbst.',
    ]),
    item('Keyboard Yamaha mit Ständer und Hocker', { day: [5, 10], deposit: [80, 150], weekly: true }, [
      'Keyboard mit 61 anschlagdynamischen Tasten, Ständer, Hocker und Kopfhörern.',
      'Gut zum Ausprobieren, bevor man ein Instrument kauft, oder für Auftritte bei Feiern.',
      'Das Netzteil und eine Notenablage sind dabei.',
    ]),
    item('Rollstuhl faltbar für Ausflüge', { day: [3, 6], deposit: [50, 100], weekly: true }, [
      'Leichter Faltrollstuhl mit Trommelbremsen für Begleitpersonen, Sitzbreite 45 cm.',
      'Ideal, wenn die Großeltern zu Besuch kommen oder für einen Ausflug in den Zoo.',
      'Ein Sitzkissen ist dabei, der Rollstuhl passt gefaltet in jeden Kofferraum.',
    ]),
    item('Einkochautomat Weck mit Gläsern', { day: [3, 6], deposit: [20, 40], weekly: true }, [
      'Einkochautomat mit Thermostat und Zeitschaltuhr für 14 Gläser à 1 Liter.',
      'Dazu 20 Weck-Gläser mit Ringen und Klammern.',
      'Perfekt für die Obst- und Gemüseernte im Spätsommer.',
    ]),
  ],
};
